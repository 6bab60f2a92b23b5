"""Detection plus decoding of undeclared 20 KB pages, per encoding, side by side in one run.

Usage: python benchmarks/bench_detect.py [--repeat N] [--short]

With ``--short``, the short pages instead (``-short`` and ``-few``, 100-600 bytes: a few
non-ASCII bytes to decide on), all the languages of each encoding, each page once per run
(no page's figures are a repeat of another's).

For each encoding of the labelled pages (``tests/data/detection``, one language each), the long
page is grown to about 20 KB by repeating its text, without any declaration (and the UTF-8
page once more with one invalid byte). Timed (medians,
the three interleaved): this package's ``decode_html`` (the text a browser reads: detection and
decoding), Scrapy's ``HtmlResponse(url, body=body).text``, and charset-normalizer's
``str(from_bytes(body).best())``. The ratios are ours / Scrapy and ours / charset-normalizer.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from scrapy_charset.encoding import get_encoding
from scrapy_charset.sniffing import decode_html

PAGES = Path(__file__).resolve().parent.parent / "tests" / "data" / "detection"
SIZE = 20 * 1024


def pages() -> dict[str, tuple[str, bytes]]:
    """One undeclared ~20 KB page per encoding: encoding -> (language, body)."""
    chosen: dict[str, tuple[str, bytes]] = {}
    for row in (PAGES / "MANIFEST.tsv").read_text().splitlines()[1:]:
        name, encoding, _ = row.split("\t")
        if not name.endswith("-long.html") or encoding in chosen:
            continue
        body = (PAGES / name).read_bytes()
        codec = get_encoding(encoding).python_codec  # markup is ASCII except in UTF-16
        head, rest = body.split("<main>".encode(codec), 1)
        main, tail = rest.split("</main>".encode(codec), 1)
        copies = max(1, -(-(SIZE - len(head) - len(tail)) // len(main)))
        chosen[encoding] = (name.split("-" + encoding)[0], head + main * copies + tail)
    # UTF-8 with one invalid byte halfway (a Latin-1 `é` pasted in): UTF-8 by its bytes.
    language, body = chosen["UTF-8"]
    middle = body.index(b"<", len(body) // 2)
    chosen["UTF-8 + \\xe9"] = (language, body[:middle] + b"caf\xe9" + body[middle:])
    return chosen


def short_pages() -> dict[str, tuple[str, list[bytes]]]:
    """The short undeclared pages of each encoding: encoding -> (languages, bodies)."""
    chosen: dict[str, tuple[list[str], list[bytes]]] = {}
    for row in (PAGES / "MANIFEST.tsv").read_text().splitlines()[1:]:
        name, encoding, _ = row.split("\t")
        if name.endswith(("-short.html", "-few.html")):
            languages, bodies = chosen.setdefault(encoding, ([], []))
            languages.append(name.split("-" + encoding)[0])
            bodies.append((PAGES / name).read_bytes())
    return {
        encoding: (",".join(sorted(set(languages)))[:8], bodies)
        for encoding, (languages, bodies) in chosen.items()
    }


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=31)
    parser.add_argument("--short", action="store_true", help="the short pages (see above)")
    args = parser.parse_args(argv)

    import charset_normalizer
    from scrapy.http import HtmlResponse

    url = "http://www.example.com/page.html"
    if args.short:
        print(f"undeclared short pages, median us per page ({args.repeat} runs of each set):")
        sets = short_pages()
    else:
        print(f"undeclared ~{SIZE // 1024} KB pages, median us per page ({args.repeat} runs each):")
        sets = {encoding: (language, [body]) for encoding, (language, body) in pages().items()}
    print(
        f"  {'encoding':16s} {'lang':8s} {'ours':>8s} {'Scrapy':>8s} {'ch-norm':>8s}"
        f" {'ours/Scrapy':>12s} {'ours/ch-norm':>13s}"
    )
    worst_scrapy = worst_cn = 0.0
    for encoding, (language, bodies) in sets.items():
        contenders: dict[str, Callable[[], object]] = {
            "ours": lambda bodies=bodies: [decode_html(body, url=url)[0] for body in bodies],
            "scrapy": lambda bodies=bodies: [HtmlResponse(url, body=body).text for body in bodies],
            "cn": lambda bodies=bodies: [
                str(charset_normalizer.from_bytes(body).best()) for body in bodies
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for function in contenders.values():
            function()  # warm up (imports, caches)
        for _ in range(3):  # interleaved rounds
            for name, function in contenders.items():
                times[name] += timed(function, max(1, args.repeat // 3))
        median = {
            name: statistics.median(values) * 1e6 / len(bodies) for name, values in times.items()
        }
        to_scrapy, to_cn = median["ours"] / median["scrapy"], median["ours"] / median["cn"]
        worst_scrapy, worst_cn = max(worst_scrapy, to_scrapy), max(worst_cn, to_cn)
        print(
            f"  {encoding:16s} {language:8s} {median['ours']:8.0f} {median['scrapy']:8.0f}"
            f" {median['cn']:8.0f} {to_scrapy:11.2f}x {to_cn:12.2f}x"
        )
    print(f"  worst: ours/Scrapy {worst_scrapy:.2f}x, ours/charset-normalizer {worst_cn:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
