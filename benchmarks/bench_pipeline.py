"""CharsetPipeline overhead against a pass-through pipeline, measured side by side.

Usage: python benchmarks/bench_pipeline.py [--items 100000] [--rounds 5] [--check]

Items are dicts of 10 text fields: mostly ASCII, with French, German, Vietnamese and Japanese
text, about 1% of values carrying U+FFFD and 1% carrying mojibake. Two measurements, each the
median over ``--rounds`` rounds in which both pipelines run on the same items:

- direct: ``pipeline.process_item(item)`` in a loop (the pipeline's own cost per item);
- through Scrapy: each item goes through Scrapy's ``ItemPipelineManager``, the path every
  scraped item takes, with only that pipeline enabled.

``--check`` exits with status 1 unless the Scrapy ratio is at most 1.5x and the direct cost
is under 10 us per item.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from scrapy.pipelines import ItemPipelineManager
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.pipeline import CharsetPipeline

MAX_RATIO = 1.5
MAX_US_PER_ITEM = 10.0

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
]
FIELDS = [f"field_{i}" for i in range(10)]


class PassThroughPipeline:
    """The reference: a pipeline that returns every item as it came."""

    def process_item(self, item: Any, spider: Any = None) -> Any:
        return item


def make_items(count: int, seed: int = 8) -> list[dict[str, str]]:
    rng = random.Random(seed)
    items = []
    for _ in range(count):
        item = {}
        for name in FIELDS:
            text = rng.choice(TEXTS)
            roll = rng.random()
            if roll < 0.01:
                text = text.encode("utf-8").decode("ascii", errors="replace")
            elif roll < 0.02:
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


def scrapy_round(items: list[dict[str, str]]) -> tuple[float, float]:
    charset = ItemPipelineManager.from_crawler(_crawler(CharsetPipeline))
    plain = ItemPipelineManager.from_crawler(_crawler(PassThroughPipeline))
    return _time(_through_manager(charset, items)), _time(_through_manager(plain, items))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    items = make_items(args.items)
    direct: list[tuple[float, float]] = []
    scrapy: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        direct.append(direct_round(items))
        scrapy.append(scrapy_round(items))
    n = len(items)
    print(f"{n} items x {len(FIELDS)} text fields, median of {args.rounds} rounds")
    results = {}
    for label, rounds in (("direct process_item", direct), ("through Scrapy", scrapy)):
        charset_us = statistics.median(c for c, _ in rounds) / n * 1e6
        plain_us = statistics.median(p for _, p in rounds) / n * 1e6
        ratio = statistics.median(c / p for c, p in rounds)
        results[label] = (charset_us, plain_us, ratio)
        print(
            f"{label:>20}: CharsetPipeline {charset_us:7.2f} us/item, pass-through "
            f"{plain_us:7.2f} us/item, ratio {ratio:5.2f}x, overhead "
            f"{charset_us - plain_us:6.2f} us/item"
        )
    ok_ratio = results["through Scrapy"][2] <= MAX_RATIO
    ok_cost = results["direct process_item"][0] < MAX_US_PER_ITEM
    print(
        f"through-Scrapy ratio <= {MAX_RATIO}x: {'yes' if ok_ratio else 'NO'}; "
        f"direct cost < {MAX_US_PER_ITEM:g} us/item: {'yes' if ok_cost else 'NO'}"
    )
    return 0 if (ok_ratio and ok_cost) or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
