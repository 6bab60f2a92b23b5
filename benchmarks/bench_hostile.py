"""What hostile input costs, as ratios to decoding the same bytes (medians, one run).

Usage: python benchmarks/bench_hostile.py [--repeat N] [--mb N] [--big-mb N] [--vs-stock]

Rows: sniffing adversarial 1 MB bodies (tag, comment and attribute soup, unclosed quotes...),
sniffing with adversarial 1 MB Content-Type headers, decoding adversarial 1 MB byte strings,
the item pipeline on a 1 MB field full of mojibake candidates, and sniffing 100 MB bodies of
one repeated byte (undeclared and declared). Each time is divided by the time
``bytes.decode("latin-1")`` takes on a body of the same size, measured in the same run: a
ratio of 1 costs what touching every byte once costs; a declared 100 MB body read from a
prefix only shows a ratio near 0.

``--vs-stock``: per response instead, the middleware plus ``.text`` against stock Scrapy's
``.text`` (medians, in turns on fresh responses) on the hostile bodies (64 KB, with no
charset, UTF-8 and windows-1252 in the header) and headers (4 KB, the same on every response,
or made different on each so that no cache helps).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrapy_charset.encoding import decode  # noqa: E402
from scrapy_charset.sniffing import sniff  # noqa: E402
from tests.hostile.cost import BODIES, DECODER_INPUTS, HEADERS  # noqa: E402


def median_time(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def row(label: str, size: int, seconds: float, baseline: float) -> None:
    print(f"{label:44} {size / 1e6:7.1f} MB {seconds * 1e3:10.1f} ms {seconds / baseline:9.1f}x")


def pipeline_case(size: int) -> Callable[[], object]:
    from scrapy.utils.test import get_crawler

    from scrapy_charset.integration.pipeline import CharsetPipeline

    crawler = get_crawler()
    crawler.stats.open_spider()  # type: ignore[union-attr]
    pipeline = CharsetPipeline.from_crawler(crawler)
    text = "CafÃ© â€™ " * (size // 10)
    return lambda: pipeline.process_item({"url": "http://example.com/", "text": text})


def _response(url: str, body: bytes, headers: dict[str, Any], i: int) -> Any:
    from scrapy.http import HtmlResponse

    return HtmlResponse(url, body=body, headers=headers)


def _with_header(url: str, body: bytes, values: list[Any], varied: bool, i: int) -> Any:
    """A response with the Content-Type ``values``, made different for each ``i`` if
    ``varied`` (no cache then helps)."""
    own = [f"{value}; x={i}" for value in values] if varied else values
    return _response(url, body, {"Content-Type": own}, i)


def against_stock(repeat: int) -> int:
    """Per response, the middleware plus ``.text`` against stock Scrapy's ``.text`` on the
    hostile bodies (64 KB, three headers) and headers (4 KB, each sent on every response or
    different on each)."""
    from scrapy.http import Request
    from scrapy.utils.test import get_crawler

    from scrapy_charset.integration.middleware import CharsetMiddleware

    middleware = CharsetMiddleware.from_crawler(get_crawler())
    url = "http://example.com/"
    request = Request(url)

    def ratio(make: Callable[[int], Any]) -> tuple[float, float]:
        stock, ours = [], []
        for i in range(repeat * 4):  # in turns, on fresh responses
            response = make(i)
            start = time.perf_counter()
            if i % 2:
                middleware.process_response(request, response).text  # noqa: B018
                ours.append(time.perf_counter() - start)
            else:
                response.text  # noqa: B018
                stock.append(time.perf_counter() - start)
        return statistics.median(stock), statistics.median(ours)

    def show(label: str, times: tuple[float, float]) -> float:
        stock, ours = times
        print(f"{label:44} {stock * 1e6:10.1f} {ours * 1e6:10.1f} {ours / stock:7.2f}x")
        return ours / stock

    print(f"{'case (per response)':44} {'stock µs':>10} {'ours µs':>10} {'ratio':>8}")
    worst = 0.0
    for name, make_body in BODIES.items():
        body = make_body(1 << 16)
        for header in ("text/html", "text/html; charset=utf-8", "text/html; charset=cp1252"):
            headers = {"Content-Type": header}
            times = ratio(partial(_response, url, body, headers))
            worst = max(worst, show(f"{name}, {header[11:] or 'no charset'}", times))
    page = b"<p>caf\xc3\xa9</p>" * 2000
    for name, make_header in HEADERS.items():
        value = make_header(4096)
        values = value if isinstance(value, list) else [value]
        for varied in (False, True):
            times = ratio(partial(_with_header, url, page, values, varied))
            worst = max(worst, show(f"header {name}{', each its own' if varied else ''}", times))
    print(f"worst ratio: {worst:.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timings per row (median)")
    parser.add_argument("--mb", type=float, default=1.0, help="size of the adversarial inputs")
    parser.add_argument("--big-mb", type=float, default=100.0, help="size of one-byte bodies")
    parser.add_argument(
        "--vs-stock", action="store_true", help="per response against stock Scrapy instead"
    )
    args = parser.parse_args(argv)
    if args.vs_stock:
        return against_stock(max(args.repeat, 15))
    size, big = int(args.mb * 1e6), int(args.big_mb * 1e6)

    def baseline(data: bytes) -> float:
        return median_time(lambda: data.decode("latin-1"), args.repeat)

    print(f"{'case':44} {'size':>10} {'median':>13} {'vs latin-1 decode':>10}")
    one_mb_baseline = baseline(b"x" * size)
    for name, make in BODIES.items():
        body = make(size)
        row(f"sniff body: {name}", len(body), median_time(partial(sniff, body), args.repeat),
            baseline(body))
    for name, make_header in HEADERS.items():
        header = make_header(size)
        row(f"sniff header: {name}", size,
            median_time(partial(sniff, b"<p>x", header), args.repeat), one_mb_baseline)
    for name, (label, make) in DECODER_INPUTS.items():
        data = make(size)
        row(f"decode {label}: {name}", len(data),
            median_time(partial(decode, data, label), args.repeat), baseline(data))
    row("pipeline: 1 field of mojibake candidates", size,
        median_time(pipeline_case(size), args.repeat), one_mb_baseline)

    big_repeat = max(1, min(args.repeat, 3))
    for byte in (b"a", b"\xe9", b"\x00", b"<"):
        body = byte * big  # the previous row's body is freed here: one at a time in memory
        cost = baseline(body)
        row(f"sniff undeclared {big // 10**6} MB of {byte!r}", big,
            median_time(partial(sniff, body), big_repeat), cost)
    for prefix, content_type in ((b"", "text/html; charset=shift_jis"),
                                 (b"<meta charset=euc-kr>", None)):
        body = prefix + b"<" * big
        where = "header" if content_type else "meta"
        row(f"sniff {where}-declared {big // 10**6} MB of b'<'", big,
            median_time(partial(sniff, body, content_type), args.repeat), baseline(body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
