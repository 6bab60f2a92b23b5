"""Import cost of the Scrapy parts (add-on, middleware, pipeline) on top of Scrapy itself.

Usage: python benchmarks/bench_import.py [--runs 15] [--check]

Each run is a fresh Python process (with up-to-date bytecode, as an installed package has)
that first imports what every Scrapy crawl imports (the crawler, the engine, ``scrapy.http``
and Scrapy's default downloader and spider middlewares and extensions), then times importing
``scrapy_charset.integration.addon``, ``.middleware`` and ``.pipeline``. Printed: the median
over runs of both, in milliseconds of wall-clock time (what ``python -X importtime`` reports)
and of CPU time of the process (which other load on a busy machine inflates less).
``--check`` exits with status 1 if the median wall-clock time on top of Scrapy is above 20 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

LIMIT_MS = 20.0

CHILD = """
import json, time
start, start_cpu = time.perf_counter(), time.process_time()
import scrapy.crawler, scrapy.core.engine, scrapy.http
from scrapy.settings import default_settings
from scrapy.utils.misc import load_object
for name in ("DOWNLOADER_MIDDLEWARES_BASE", "SPIDER_MIDDLEWARES_BASE", "EXTENSIONS_BASE"):
    for path in getattr(default_settings, name):
        load_object(path)
scrapy_done, scrapy_done_cpu = time.perf_counter(), time.process_time()
import scrapy_charset.integration.addon
import scrapy_charset.integration.middleware
import scrapy_charset.integration.pipeline
done, done_cpu = time.perf_counter(), time.process_time()
print(json.dumps([scrapy_done - start, done - scrapy_done,
                  scrapy_done_cpu - start_cpu, done_cpu - scrapy_done_cpu]))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    # Bytecode written as an installed package has it (PYTHONDONTWRITEBYTECODE would time the
    # compilation of every module instead), by a first run that is not counted.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = []
    for run in range(args.runs + 1):
        output = subprocess.run(
            [sys.executable, "-c", CHILD], check=True, capture_output=True, text=True, env=env
        ).stdout
        if not run:
            continue
        runs.append([seconds * 1000 for seconds in json.loads(output)])
    columns = zip(*runs, strict=True)
    scrapy, ours, scrapy_cpu, ours_cpu = (statistics.median(column) for column in columns)
    print(f"medians of {args.runs} fresh processes             wall-clock      CPU")
    print(f"Scrapy's crawl modules:                        {scrapy:7.1f} ms {scrapy_cpu:7.1f} ms")
    print(f"scrapy_charset on top (add-on, middleware, pipeline) {ours:.1f} ms {ours_cpu:.1f} ms")
    print(f"ratio on top / Scrapy: {ours / scrapy:.2f} (CPU {ours_cpu / scrapy_cpu:.2f})")
    print(f"on top of Scrapy <= {LIMIT_MS:.0f} ms: {'yes' if ours <= LIMIT_MS else 'NO'}")
    if args.check and ours > LIMIT_MS:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
