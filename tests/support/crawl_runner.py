"""Child-process side of :func:`tests.support.crawl.run_crawl`."""

from __future__ import annotations

import importlib
import json
import sys
from datetime import datetime
from typing import Any


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def main() -> None:
    from itemadapter import ItemAdapter
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    config = json.loads(sys.argv[1])
    module_name, _, class_name = config["spider"].partition(":")
    spider_cls = getattr(importlib.import_module(module_name), class_name)

    # The reactor is chosen when the process starts, so it must be among the process settings.
    process_settings = {"LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False}
    if "TWISTED_REACTOR" in config["settings"]:
        process_settings["TWISTED_REACTOR"] = config["settings"]["TWISTED_REACTOR"]
    process = CrawlerProcess(settings=process_settings)
    crawler = process.create_crawler(spider_cls)
    crawler.settings.setdict(config["settings"], priority="cmdline")
    items: list[Any] = []
    stats: dict[str, Any] = {}

    def on_item(item: Any) -> None:
        items.append(_jsonable(ItemAdapter(item).asdict()))

    def on_closed(spider: Any) -> None:
        stats.update(crawler.stats.get_stats())

    crawler.signals.connect(on_item, signal=signals.item_scraped)
    crawler.signals.connect(on_closed, signal=signals.spider_closed)
    process.crawl(crawler, **config["spider_kwargs"])
    process.start()
    with open(config["output"], "w", encoding="utf-8") as fh:
        json.dump({"items": items, "stats": _jsonable(stats)}, fh)


if __name__ == "__main__":
    main()
