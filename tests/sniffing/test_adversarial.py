"""Hostile megabyte inputs finish, and with linear work.

Each input is timed at 64 KB and at 256 KB: linear work takes about 4x as long, quadratic work
16x. The bound below (10x, plus a floor for timer noise) is generous for linear code and
fails for quadratic code by a wide margin. Then the 1 MB input must give its answer.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scrapy_charset.sniffing import Decision, sniff
from scrapy_charset.sniffing.content_type import charset_from_content_type
from scrapy_charset.sniffing.late_meta import scan_meta_like_chromium
from tests.hostile.cost import times_within

MB = 1 << 20


def _assert_linear(make: Callable[[int], object], run: Callable[[object], object]) -> None:
    small, large = make(MB // 16), make(MB // 4)
    run(small)  # warm up compiled patterns and caches

    def allowed(small_time: float) -> float:
        return 10 * small_time + 0.5

    small_time, large_time = times_within(lambda: run(small), lambda: run(large), allowed)
    assert large_time <= allowed(small_time), (small_time, large_time)


def _repeat(unit: bytes) -> Callable[[int], bytes]:
    return lambda size: unit * (size // len(unit))


BODIES = {
    "meta repeated": _repeat(b"<meta "),
    "meta charset unterminated": _repeat(b'<meta charset="'),
    "comment openers": _repeat(b"<!--"),
    "comment in head": lambda size: b"<head><!--" + b"-" * size,
    "script in head": lambda size: b"<head><script>" + b"<" * size,
    "attribute soup": _repeat(b"<a b='c' d=\"e\" f=g h "),
    "unclosed tags": _repeat(b"<a"),
    "xml declaration": lambda size: b"<?xml encoding" + b" " * size,
    "bogus comments": _repeat(b"<!x"),
    "equals soup": _repeat(b"<meta =a= =b="),
    "high bytes": _repeat(b"\xe9\xff\x80<>"),
    "lead bytes": _repeat(b"\x81"),
    "nul bytes": _repeat(b"\x00"),
    "text nodes": _repeat(b">\xe9"),
}


@pytest.mark.parametrize("make", BODIES.values(), ids=BODIES.keys())
def test_hostile_body(make: Callable[[int], bytes]) -> None:
    _assert_linear(make, lambda body: sniff(body))  # type: ignore[arg-type]
    assert isinstance(sniff(make(MB)), Decision)


@pytest.mark.parametrize("make", BODIES.values(), ids=BODIES.keys())
def test_hostile_body_in_the_late_meta_scan(make: Callable[[int], bytes]) -> None:
    _assert_linear(make, lambda body: scan_meta_like_chromium(body))  # type: ignore[arg-type]


HEADERS = {
    "semicolons": lambda size: "text/html" + ";" * size,
    "commas": lambda size: "," * size,
    "quotes": lambda size: "text/html; charset=" + '"' * size,
    "backslashes": lambda size: 'text/html; charset="' + "\\" * size,
    "parameters": lambda size: "text/html" + "; a=b" * (size // 5),
    "quoted commas": lambda size: '"a,' * (size // 3),
    "bytes with NUL": lambda size: b"text/html; charset=" + b"\x00\xff" * (size // 2),
}


@pytest.mark.parametrize("make", HEADERS.values(), ids=HEADERS.keys())
def test_hostile_content_type(make: Callable[[int], str | bytes]) -> None:
    _assert_linear(make, lambda header: charset_from_content_type(header))
    assert isinstance(sniff(b"<p>x</p>", make(MB)), Decision)


def test_a_megabyte_of_header_values() -> None:
    values = ["text/html; charset=gbk"] * 20_000 + ["x" * 50] * 1_000
    assert sniff(b"", values).encoding.name == "GBK"
