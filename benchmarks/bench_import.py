"""Import cost of the Scrapy parts (add-on, middleware, pipeline) on top of Scrapy itself.

Usage: python benchmarks/bench_import.py [--runs 15] [--check]

Each run is a fresh Python process that first imports what every Scrapy crawl imports (the
crawler, the engine, ``scrapy.http`` and Scrapy's default downloader and spider middlewares
and extensions), then times importing ``scrapy_charset.integration.addon``,
``.middleware`` and ``.pipeline``. Printed: the median over runs of both, in milliseconds.
``--check`` exits with status 1 if the median on top of Scrapy is above 20 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

LIMIT_MS = 20.0

CHILD = """
import json, time
start = time.perf_counter()
import scrapy.crawler, scrapy.core.engine, scrapy.http
from scrapy.settings import default_settings
from scrapy.utils.misc import load_object
for name in ("DOWNLOADER_MIDDLEWARES_BASE", "SPIDER_MIDDLEWARES_BASE", "EXTENSIONS_BASE"):
    for path in getattr(default_settings, name):
        load_object(path)
scrapy_done = time.perf_counter()
import scrapy_charset.integration.addon
import scrapy_charset.integration.middleware
import scrapy_charset.integration.pipeline
done = time.perf_counter()
print(json.dumps([scrapy_done - start, done - scrapy_done]))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    scrapy_ms, ours_ms = [], []
    for _ in range(args.runs):
        output = subprocess.run(
            [sys.executable, "-c", CHILD], check=True, capture_output=True, text=True
        ).stdout
        scrapy_s, ours_s = json.loads(output)
        scrapy_ms.append(scrapy_s * 1000)
        ours_ms.append(ours_s * 1000)
    scrapy_median, ours_median = statistics.median(scrapy_ms), statistics.median(ours_ms)
    print(f"medians of {args.runs} fresh processes")
    print(f"Scrapy's crawl modules:              {scrapy_median:7.1f} ms")
    print(f"scrapy_charset on top (add-on, middleware, pipeline): {ours_median:7.1f} ms")
    print(f"ratio on top / Scrapy: {ours_median / scrapy_median:.2f}")
    if args.check and ours_median > LIMIT_MS:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
