"""Per response, in-process: the middleware plus ``.text`` against Scrapy's own ``.text``.

Usage: python benchmarks/bench_response.py [--rounds 31] [--check] [KIND ...]

For each page kind (realistic pages of about 30 KB with a typical ``<head>``: viewport,
description and Open Graph ``<meta>`` tags, stylesheets, scripts; also a feed, JSON and plain
text, which the middleware passes through by default), fresh ``HtmlResponse`` objects (or
``XmlResponse``, ``TextResponse``) are built as Scrapy's downloader builds them; then, side
by side in each round,

- stock: ``response.text`` (Scrapy's own decoding, including its detection where it runs it),
- ours: ``CharsetMiddleware.process_response(request, response).text`` (default settings).

Building the response is not timed (both pay it). Calls alternate between the two sides, each
on its own fresh response, so both meet the same load on a shared machine; a round is enough
calls to last about 50 ms per side, and its ratio is the median of our calls' times over the
median of stock's. Printed: the median over rounds (at most 1.0: no slower than stock Scrapy).
``--check`` exits with status 1 if any kind's median ratio is above 1.0. ``KIND`` arguments
keep only the kinds whose names contain one of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from scrapy.http import HtmlResponse, Request, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.middleware import CharsetMiddleware

TEXT = {
    "en": "The quick brown fox jumps over the lazy dog while the committee reviews the report. ",
    "fr": "Voilà un café très élégant où l'on déjeune près du château, à côté de la forêt. ",
    "ru": "Съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус. ",
    "ja": "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。東京の天気は晴れ。",
}


def page(language: str, size: int, meta: str = "") -> str:
    """An HTML page of about ``size`` characters in ``language``."""
    head = (
        "<!DOCTYPE html><html lang='x'><head>"
        f"{meta}"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="description" content="A page about things and other things">'
        '<meta property="og:title" content="Things"><meta property="og:type" content="article">'
        '<meta name="twitter:card" content="summary_large_image">'
        "<title>Things and other things</title>"
        + "".join(f'<link rel="stylesheet" href="/static/css/s{i}.css">' for i in range(6))
        + '<script src="/static/js/app.js" defer></script>'
        "<script>window.dataLayer = window.dataLayer || []; function gtag(){}</script>"
        "</head><body>"
    )
    nav = "<nav><ul>" + "".join(f'<li><a href="/c/{i}">Section {i}</a></li>' for i in range(30))
    parts = [head, nav, "</ul></nav><main>"]
    total = sum(map(len, parts))
    i = 0
    while total < size:
        chunk = (
            f'<article class="post" id="p{i}"><h2><a href="/a/{i}">Title {i}</a></h2>'
            f"<p>{TEXT[language] * 3}</p></article>\n"
        )
        parts.append(chunk)
        total += len(chunk)
        i += 1
    return "".join(parts) + "</main></body></html>"


SIZE = 30_000


def kinds() -> dict[str, tuple[bytes, dict[str, str], type[TextResponse]]]:
    """Page kind -> (body, headers, response class)."""
    html = {"Content-Type": "text/html"}
    utf8_en = page("en", SIZE)
    # A <meta> after 1,024 bytes of <head> (an inline script) but within the 4,096 w3lib reads.
    script = "<script>" + "var x = 1;\n" * 150 + "</script>"
    http_equiv = '<meta http-equiv="Content-Type" content="text/html; charset={}">'
    pages = {
        "header-declared UTF-8": (
            page("fr", SIZE).encode(),
            {"Content-Type": "text/html; charset=utf-8"},
        ),
        "meta-declared UTF-8": (page("fr", SIZE, '<meta charset="utf-8">').encode(), html),
        "declared single-byte": (
            page("ru", SIZE, '<meta charset="windows-1251">').encode("cp1251"),
            html,
        ),
        "declared CJK": (page("ja", SIZE, '<meta charset="shift_jis">').encode("cp932"), html),
        "undeclared UTF-8": (page("fr", SIZE).encode(), html),
        "undeclared legacy": (page("ru", SIZE).encode("cp1251"), html),
        "BOM (UTF-8)": (b"\xef\xbb\xbf" + utf8_en.encode(), html),
        "large 1 MB (header UTF-8)": (
            page("fr", 1 << 20).encode(),
            {"Content-Type": "text/html; charset=utf-8"},
        ),
        "http-equiv UTF-8": (page("fr", SIZE, http_equiv.format("utf-8")).encode(), html),
        "late meta UTF-8": (page("fr", SIZE, script + '<meta charset="utf-8">').encode(), html),
        "late http-equiv 1251": (
            page("ru", SIZE, script + http_equiv.format("windows-1251")).encode("cp1251"),
            html,
        ),
        "header+meta UTF-8": (
            page("fr", SIZE, '<meta charset="utf-8">').encode(),
            {"Content-Type": "text/html; charset=UTF-8"},
        ),
        "header 1252": (
            page("fr", SIZE).encode("cp1252"),
            {"Content-Type": "text/html; charset=ISO-8859-1"},
        ),
        "header 8859-1, meta UTF-8": (  # the header overrides the <meta>: mojibake
            page("fr", SIZE, '<meta charset="utf-8">').encode(),
            {"Content-Type": "text/html; charset=ISO-8859-1"},
        ),
    }
    # A small page declaring nothing, all ASCII (an error page, a fragment).
    pages["small undeclared ASCII"] = (b"<html><body><p>Not found</p></body></html>" * 8, html)
    # A header charset no browser knows (as charset=utf8mb4 or none in the wild): the page is
    # read as Chromium shows it (detection).
    pages["unknown header label"] = (
        page("fr", SIZE).encode(),
        {"Content-Type": "text/html; charset=utf8mb4"},
    )
    # A mislabelled image or PDF: random bytes sent as HTML without a charset (detection).
    noise = random.Random(5).randbytes(SIZE)
    pages["random bytes as HTML"] = (noise, html)
    pages["PDF-like bytes as HTML"] = (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + noise, html)
    pages["BOM (UTF-8) + meta"] = (
        b"\xef\xbb\xbf" + page("fr", SIZE, '<meta charset="utf-8">').encode(),
        html,
    )
    found = {name: (body, headers, HtmlResponse) for name, (body, headers) in pages.items()}
    # XHTML (an XML media type, parsed as XML) arrives as an HtmlResponse.
    found["XHTML, XML declaration"] = (
        ('<?xml version="1.0" encoding="utf-8"?>' + page("fr", SIZE)).encode(),
        {"Content-Type": "application/xhtml+xml"},
        HtmlResponse,
    )
    item = "<item><title>Café très élégant</title></item>" * 500
    feed = f'<?xml version="1.0" encoding="utf-8"?><rss><channel>{item}</channel></rss>'
    found["xml feed (RSS)"] = (feed.encode(), {"Content-Type": "application/rss+xml"}, XmlResponse)
    data = '{"a": [' + ",".join(['"Café très élégant"'] * 1500) + "]}"
    found["JSON, no charset"] = (data.encode(), {"Content-Type": "application/json"}, TextResponse)
    found["text/plain (header UTF-8)"] = (
        ("Café très élégant. " * 1500).encode(),
        {"Content-Type": "text/plain; charset=utf-8"},
        TextResponse,
    )
    return found


URL = "https://www.example.com/articles/1"


def paired_times(
    make: Callable[[], TextResponse],
    stock: Callable[[TextResponse], object],
    ours: Callable[[TextResponse], object],
    count: int,
) -> tuple[list[float], list[float]]:
    """Seconds of each call, stock and ours taking turns on fresh responses (building not
    timed), so that both meet the same load on a shared machine."""
    stock_times, ours_times = [], []
    clock = time.perf_counter
    for i in range(count):
        a, b = make(), make()
        for side in ((0, 1) if i % 2 else (1, 0)):
            response, run, times = (a, stock, stock_times) if side == 0 else (b, ours, ours_times)
            start = clock()
            run(response)
            times.append(clock() - start)
    return stock_times, ours_times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("kinds", nargs="*", metavar="KIND")
    args = parser.parse_args(argv)

    crawler = get_crawler(settings_dict={})
    mw = CharsetMiddleware.from_crawler(crawler)
    request = Request(URL)

    def stock(response: TextResponse) -> object:
        return response.text

    def ours(response: TextResponse) -> object:
        return mw.process_response(request, response).text

    print(f"medians of {args.rounds} rounds; µs per response; ratio = ours / stock")
    print(f"{'page kind':28} {'stock µs':>10} {'ours µs':>10} {'ratio':>7}")
    worst = 0.0
    for name, (body, headers, cls) in kinds().items():
        if args.kinds and not any(part in name for part in args.kinds):
            continue

        def make(
            body: bytes = body, headers: dict[str, str] = headers, cls: type = cls
        ) -> TextResponse:
            return cls(URL, headers=headers, body=body)  # type: ignore[no-any-return]

        stock_times, ours_times = paired_times(make, stock, ours, 3)  # warm up
        per_call = statistics.median(stock_times)
        count = max(3, min(300, int(0.05 / max(per_call, 1e-6))))
        ratios, stock_medians, ours_medians = [], [], []
        for _ in range(args.rounds):
            stock_times, ours_times = paired_times(make, stock, ours, count)
            stock_medians.append(statistics.median(stock_times))
            ours_medians.append(statistics.median(ours_times))
            ratios.append(ours_medians[-1] / stock_medians[-1])
        ratio = statistics.median(ratios)
        stock_us = statistics.median(stock_medians) * 1e6
        ours_us = statistics.median(ours_medians) * 1e6
        print(f"{name:28} {stock_us:10.1f} {ours_us:10.1f} {ratio:6.2f}x")
        worst = max(worst, ratio)
    print(f"worst ratio: {worst:.2f}x")
    if args.check and worst > 1.0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
