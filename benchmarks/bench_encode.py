"""Encoding speed of the Encoding Standard's encoders against Python's codecs, side by side.

For every encoding with an encoder of its own (not replacement; UTF-16BE/LE encode as UTF-8
for URLs and forms, so they are left out too) two realistic inputs:

- ``query``: the value of a URL query or form field, a 40-character string in the
  encoding's languages, encoded 2000 times per timing (per-call cost);
- ``page``: about 200 KB of the same text (bulk cost),

each encoded by

- ``encode(text, name)`` (this project, error mode html),
- ``text.encode("scrapy-charset-<name>")`` (the registered codec ``response.encoding`` names),
- Python's nearest codec with errors="xmlcharrefreplace" (the baseline; not spec-exact).
  x-user-defined has none: a bare ``codecs.charmap_encode`` call is timed for reference (no
  codec lookup, so not a like-for-like baseline), and it is left out of the worst ratio.

For UTF-8, Python's ``str.encode("utf-8")`` is special-cased inside CPython (no codec lookup,
no Python call): on query-sized text neither a registered codec nor a Python-level function
can reach it, which is why ``response.encoding`` is Python's ``"utf-8"`` for UTF-8 pages. The
worst ratio is printed with and without UTF-8.

The calls take turns for ROUNDS rounds; a ratio is the median over rounds of baseline time /
other time (above 1: faster than Python's codec).

    python benchmarks/bench_encode.py [--rounds N] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import codecs
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_decode import LANGUAGES, SAMPLES  # noqa: E402

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, encode  # noqa: E402
from scrapy_charset.encoding.pycodecs import codec_name  # noqa: E402

QUERY_CHARS = 40
QUERY_CALLS = 20000
PAGE_CHARS = 200_000


def texts(encoding: Encoding) -> tuple[str, str]:
    """A query-sized and a page-sized text in the encoding's languages."""
    prose = " ".join(SAMPLES[name] for name in LANGUAGES[encoding.name])
    if encoding.name == "x-user-defined":
        prose = "".join(chr(0xF780 + (ord(c) % 128)) if not c.isascii() else c for c in prose)
    page = (prose * (PAGE_CHARS // len(prose) + 1))[:PAGE_CHARS]
    return prose[:QUERY_CHARS], page


def baseline(encoding: Encoding) -> tuple[str, Callable[[str], bytes]]:
    if encoding.name == "x-user-defined":
        mapping = codecs.charmap_build(
            "".join(map(chr, range(0x80))) + "".join(map(chr, range(0xF780, 0xF800)))
        )
        return "charmap", lambda text: codecs.charmap_encode(text, "xmlcharrefreplace", mapping)[0]
    codec = encoding.python_codec
    return codec, lambda text: text.encode(codec, "xmlcharrefreplace")


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def repeat(function: Callable[[str], bytes], text: str, calls: int) -> Callable[[], None]:
    def run() -> None:
        for _ in range(calls):
            function(text)

    return run


def ratios(functions: list[Callable[[], None]], rounds: int) -> list[float]:
    """Median over rounds of (first function's time / each function's time)."""
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(rounds):
        for i, function in enumerate(functions):
            times[i].append(timed(function))
    return [statistics.median(b / o for b, o in zip(times[0], t, strict=True)) for t in times]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    names = [
        e for e in ALL_ENCODINGS if e.name not in ("replacement", "UTF-16BE", "UTF-16LE")
    ]
    if args.only:
        names = [e for e in names if e.name in args.only]
    print(f"{'encoding':16} {'baseline':12} {'query: encode()':>16} {'codec':>7} "
          f"{'page: encode()':>15} {'codec':>7}")
    worst = {"all": float("inf"), "without UTF-8": float("inf")}
    for enc in names:
        query, page = texts(enc)
        base_name, base = baseline(enc)
        codec = codec_name(enc)

        def ours(text: str, enc: Encoding = enc) -> bytes:
            return encode(text, enc.name)

        def via_codec(text: str, codec: str = codec) -> bytes:
            return text.encode(codec)

        # The same bytes where the baseline is exact for this text (a sanity check).
        assert via_codec(page) == ours(page)
        row = []
        for text, calls in ((query, QUERY_CALLS), (page, 1)):
            r = ratios([repeat(f, text, calls) for f in (base, ours, via_codec)], args.rounds)
            row += r[1:]
        if enc.name != "x-user-defined":
            worst["all"] = min(worst["all"], *row)
            if enc.name != "UTF-8":
                worst["without UTF-8"] = min(worst["without UTF-8"], *row)
        print(f"{enc.name:16} {base_name:12} {row[0]:16.2f} {row[1]:7.2f} {row[2]:15.2f} "
              f"{row[3]:7.2f}")
    print(f"\nratio = Python codec time / our time, median of {args.rounds} rounds "
          f"(above 1: faster). Worst with a Python codec: {worst['all']:.2f}, "
          f"without UTF-8: {worst['without UTF-8']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
