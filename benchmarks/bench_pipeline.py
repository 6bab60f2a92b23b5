"""CharsetPipeline overhead against a pass-through pipeline, measured side by side.

Usage: python benchmarks/bench_pipeline.py [--items 20000] [--rounds 5] [--damaged 0.01]
       [--chars 100-1000] [--crawl] [--floor] [--check] [--long]

Items are dicts of 10 text fields of ``--chars`` characters (sentences joined: English and
product codes, French, German, Vietnamese, Japanese, Russian, Ukrainian, Greek, Polish, Czech,
Turkish, Arabic, Chinese, Korean and Hindi text), measured twice side by side: all clean,
and with a share ``--damaged`` of the values damaged (half U+FFFD, half mojibake; only
non-ASCII texts can be). Times are CPU time of this process (other load on the machine does
not count), each the median over ``--rounds`` rounds in which both pipelines handle the same
items:

- direct: ``pipeline.process_item(item)`` in a loop: the pipeline's own cost per item;
- ItemPipelineManager: each item goes through Scrapy's pipeline manager with only that
  pipeline enabled (the manager's own per-item work is the reference);
- crawl (``--crawl``): a real Scrapy crawl in a child process whose spider yields the items
  from one ``data:`` response; the reference is the whole per-item cost of a crawl.

Each ratio is the median of the per-round ratios; the range over the rounds follows in
brackets (on a busy machine it shows how far one run can be trusted). ``--floor`` adds a
reference row: the same manager with a pipeline that only joins each dict item's values, the
least any pipeline that reads every value costs against the pass-through one.

``--long``: instead, the cost per item of one long field (an article body of 10 KB and
100 KB: English with windows-1252 quote mojibake ``â€™ â€œ``, French with ``Ã©``, and clean),
by default and with ``CHARSET_ITEM_REPAIR`` (medians of ``--rounds`` calls; a pass-through
pipeline costs nothing here).

``--check`` exits with status 1 unless the ItemPipelineManager ratio is at most 1.5x both
clean and damaged.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from scrapy.pipelines import ItemPipelineManager
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.pipeline import CharsetPipeline

MAX_RATIO = 1.5

TEXTS = [
    "Stainless steel water bottle, 750 ml, keeps drinks cold for 24 hours",
    "In stock",
    "https://shop.example/products/water-bottle-750",
    "Crème brûlée à la française, déjà prête",
    "Die Größe ist übermäßig, aber schön",
    "Tiếng Việt là ngôn ngữ chính thức",
    "東京都の価格は１２３円です",
    "Free shipping on orders over $50. Returns accepted within 30 days of delivery.",
    "SKU-48213-BLU",
    "4.7 out of 5 stars (1,284 reviews)",
    "Бутылка для воды из нержавеющей стали, 750 мл — всё ещё в наличии",
    "Пляшка для води, 750 мл: Він зберігає напої холодними до 24 годин",
    "Μπουκάλι νερού από ανοξείδωτο χάλυβα, 750 ml, διατηρεί τα ποτά κρύα",
    "Butelka na wodę ze stali nierdzewnej, 750 ml — zażółć gęślą jaźń",
    "Láhev na vodu z nerezové oceli, příliš žluťoučký kůň",
    "Paslanmaz çelik su şişesi, 750 ml, içecekleri 24 saat soğuk tutar",
    "زجاجة ماء من الفولاذ المقاوم للصدأ، 750 مل",
    "不锈钢水瓶，750毫升，保持饮料冷24小时",
    "스테인리스 스틸 물병, 750ml, 음료를 24시간 차갑게 유지",
    "स्टेनलेस स्टील की पानी की बोतल, 750 मिलीलीटर",
]
FIELDS = [f"field_{i}" for i in range(10)]


class PassThroughPipeline:
    """The reference: a pipeline that returns every item as it came."""

    def process_item(self, item: Any, spider: Any = None) -> Any:
        return item


class JoinOnlyPipeline:
    """For ``--floor``: reads every value of a dict item once, in one C call, and nothing else."""

    def process_item(self, item: Any, spider: Any = None) -> Any:
        if type(item) is dict:
            "".join(item.values())
        return item


def _long_text(rng: random.Random, low: int, high: int) -> str:
    """Sentences of TEXTS joined until the text is ``low``-``high`` characters long."""
    target = rng.randint(low, high)
    parts: list[str] = []
    size = 0
    while size < target:
        part = rng.choice(TEXTS)
        parts.append(part)
        size += len(part) + 1
    return " ".join(parts)[:target]


def make_items(
    count: int, damaged: float, seed: int = 8, chars: tuple[int, int] = (100, 1000)
) -> list[dict[str, str]]:
    rng = random.Random(seed)
    pool = [_long_text(rng, *chars) for _ in range(1000)] if chars != (0, 0) else TEXTS
    items = []
    for _ in range(count):
        item = {}
        for name in FIELDS:
            text = rng.choice(pool)
            roll = rng.random()
            if roll < damaged / 2:  # the UTF-8 bytes decoded as ASCII: U+FFFD
                text = text.encode("utf-8").decode("ascii", errors="replace")
            elif roll < damaged:  # the UTF-8 bytes decoded as ISO-8859-1: mojibake
                text = text.encode("utf-8").decode("latin-1")
            item[name] = text
        items.append(item)
    return items


def _crawler(pipeline: type) -> Any:
    return get_crawler(settings_dict={"ITEM_PIPELINES": {pipeline: 300}, "LOG_LEVEL": "ERROR"})


def _time(run: Callable[[], None]) -> float:
    # CPU time of this process: other processes on a busy machine do not count.
    start = time.process_time()
    run()
    return time.process_time() - start


def direct_round(items: list[dict[str, str]]) -> tuple[float, float]:
    charset = CharsetPipeline.from_crawler(_crawler(CharsetPipeline))
    plain = PassThroughPipeline()

    def run_charset() -> None:
        for item in items:
            charset.process_item(item)

    def run_plain() -> None:
        for item in items:
            plain.process_item(item)

    return _time(run_charset), _time(run_plain)


def _through_manager(manager: Any, items: list[dict[str, str]]) -> Callable[[], None]:
    if hasattr(manager, "process_item_async"):  # Scrapy >= 2.13

        def run() -> None:
            for item in items:
                coro = manager.process_item_async(item)
                try:
                    coro.send(None)  # synchronous pipelines complete in one step
                except StopIteration:
                    continue
                raise RuntimeError("pipeline chain suspended")

        return run
    spider = manager.crawler.spider if hasattr(manager, "crawler") else None

    def run_deferred() -> None:
        for item in items:
            manager.process_item(item, spider)

    return run_deferred


def scrapy_round(
    items: list[dict[str, str]], pipeline: type = CharsetPipeline
) -> tuple[float, float]:
    charset = ItemPipelineManager.from_crawler(_crawler(pipeline))
    plain = ItemPipelineManager.from_crawler(_crawler(PassThroughPipeline))
    return _time(_through_manager(charset, items)), _time(_through_manager(plain, items))


def crawl_child(pipeline: str, count: int, damaged: float) -> None:
    """In a child process: crawl once, print the CPU seconds from spider open to close."""
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    items = make_items(count, damaged)  # (the default field lengths)

    class ItemsSpider(scrapy.Spider):
        name = "bench_items"
        start_urls = ["data:,ok"]

        def parse(self, response: Any) -> Any:
            yield from items

    chosen = CharsetPipeline if pipeline == "charset" else PassThroughPipeline
    process = CrawlerProcess(
        settings={
            "LOG_LEVEL": "ERROR",
            "TELNETCONSOLE_ENABLED": False,
            "ITEM_PIPELINES": {chosen: 300},
        }
    )
    crawler = process.create_crawler(ItemsSpider)
    marks: dict[str, float] = {}
    scraped = [0]

    def on_item(item: Any) -> None:
        scraped[0] += 1

    def on_open() -> None:
        marks["open"] = time.process_time()

    def on_close() -> None:
        marks["close"] = time.process_time()

    # (named functions: Scrapy holds signal handlers by weak reference)
    crawler.signals.connect(on_open, signal=signals.spider_opened)
    crawler.signals.connect(on_close, signal=signals.spider_closed)
    crawler.signals.connect(on_item, signal=signals.item_scraped)
    process.crawl(crawler)
    process.start()
    print(json.dumps({"cpu": marks["close"] - marks["open"], "items": scraped[0]}))


def crawl_round(count: int, damaged: float) -> tuple[float, float]:
    seconds = []
    for pipeline in ("charset", "plain"):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--crawl-child",
                pipeline,
                "--items",
                str(count),
                "--damaged",
                str(damaged),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        result = json.loads(out.strip().splitlines()[-1])
        if result["items"] != count:
            raise RuntimeError(f"crawl scraped {result['items']} of {count} items")
        seconds.append(result["cpu"])
    return seconds[0], seconds[1]


def long_fields(rounds: int) -> None:
    """Per-item cost of one long field (see ``--long``)."""
    from scrapy.utils.test import get_crawler

    from scrapy_charset.integration.pipeline import CharsetPipeline

    units = {
        "quote mojibake": "It doesn’t matter “what” you say, it’s fine. ",
        "accent mojibake": "Le café est très bon, vraiment très bon ici. ",
        "clean": "It doesn’t matter “what” you say, it’s fine here. ",
    }
    print("one long field per item, ms per item (median of", rounds, "calls)")
    for settings in ({}, {"CHARSET_ITEM_REPAIR": True}):
        for name, unit in units.items():
            if name != "clean":  # (the 0x9D of ” is lost, as a browser's windows-1252 drops it)
                unit = unit.encode().decode("cp1252", "ignore")
            for size in (10_000, 100_000):
                text = unit * (size // len(unit))
                pipeline = CharsetPipeline.from_crawler(get_crawler(settings_dict=settings))
                pipeline.open_spider()
                times = []
                for _ in range(rounds):
                    start = time.perf_counter()
                    pipeline.process_item({"url": "http://example.com/", "body": text})
                    times.append(time.perf_counter() - start)
                label = "repair" if settings else "default"
                print(
                    f"{label:8} {name:16} {len(text):7d} chars "
                    f"{statistics.median(times) * 1e3:9.2f} ms"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--damaged", type=float, default=0.01)
    parser.add_argument("--chars", default="100-1000", help="field lengths; 0-0: short texts")
    parser.add_argument("--crawl", action="store_true", help="also time a real crawl")
    parser.add_argument("--floor", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--long", action="store_true", help="long fields, per item")
    parser.add_argument("--crawl-child", choices=["charset", "plain"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    low, high = (int(part) for part in args.chars.split("-"))
    if args.crawl_child:
        crawl_child(args.crawl_child, args.items, args.damaged)
        return 0
    logging.disable(logging.WARNING)
    if args.long:
        long_fields(args.rounds)
        return 0
    levels = (0.0, args.damaged)
    item_sets = {level: make_items(args.items, level, chars=(low, high)) for level in levels}
    measured: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for level, items in item_sets.items():
            measured.setdefault(("direct", level), []).append(direct_round(items))
            measured.setdefault(("manager", level), []).append(scrapy_round(items))
            if args.floor:
                measured.setdefault(("floor", level), []).append(
                    scrapy_round(items, JoinOnlyPipeline)
                )
        if args.crawl:
            measured.setdefault(("crawl", args.damaged), []).append(
                crawl_round(args.items, args.damaged)
            )
    n = args.items
    print(
        f"{n} items x {len(FIELDS)} text fields of {low}-{high} characters, CPU time, "
        f"median of {args.rounds} rounds"
    )
    labels = {
        "direct": ("direct process_item", "CharsetPipeline"),
        "manager": ("ItemPipelineManager", "CharsetPipeline"),
        "floor": ("ItemPipelineManager", "join values only"),
        "crawl": ("crawl", "CharsetPipeline"),
    }
    ratios_at: dict[tuple[str, float], float] = {}
    for (key, level), rounds in measured.items():
        charset_us = statistics.median(c for c, _ in rounds) / n * 1e6
        plain_us = statistics.median(p for _, p in rounds) / n * 1e6
        ratios = [c / p for c, p in rounds]
        ratio = ratios_at[key, level] = statistics.median(ratios)
        label, pipeline = labels[key]
        print(
            f"{label:>20}, {level:5.1%} damaged: {pipeline} {charset_us:7.2f} us/item, "
            f"pass-through {plain_us:7.2f} us/item, ratio {ratio:5.2f}x "
            f"({min(ratios):.2f}-{max(ratios):.2f})"
        )
    manager = [ratios_at["manager", level] for level in levels]
    ok = all(ratio <= MAX_RATIO for ratio in manager)
    print(
        f"ItemPipelineManager ratio, clean / {args.damaged:.0%} damaged: "
        f"{manager[0]:.2f}x / {manager[1]:.2f}x (target <= {MAX_RATIO}x: {'yes' if ok else 'NO'})"
    )
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
