"""The audit's cost per page grows linearly with the page, whatever the kind of difference.

Each class of input is audited at n and 4n characters (the whole per-page audit: the
middleware's decoding, the three defaults, the comparison and its severity). Work is counted as
Python calls and C calls (deterministic, whatever the machine's load): linear work gives about
4x, quadratic 16x (difflib's alignment made millions of calls on a 120,000-character page).
The CPU time of the fastest of three runs is checked too, for quadratic work inside one C call.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from scrapy_charset.tools.audit_compare import Record, audit_page
from scrapy_charset.tools.audit_decoding import MiddlewareDecoder
from scrapy_charset.tools.audit_inputs import KIND_FILE, Page
from scrapy_charset.tools.audit_severity import differing
from tests.hostile.cost import times_within

SMALL = 30_000  # characters, about a web page
GROWTH = 4
WORK_LIMIT = 6.0  # linear: ~4
# Calls that do not grow with the page: requests' charset detection samples a bigger body in
# more chunks, up to a fixed number. Quadratic work on 120,000 characters makes millions.
WORK_SLACK = 20_000
TIME_LIMIT = 9.0  # linear: ~4, quadratic: ~16
HTML = ("text/html",)
PARAGRAPH = '<p class="text">Die Straße führt über die Brücke. <a href="/p/1">1</a></p>\n'


def _repeat(text: str, n: int) -> str:
    return text * max(1, n // len(text))


# (body of about n characters, Content-Type values): one per class of difference.
PAGES: dict[str, Callable[[int], tuple[bytes, tuple[str, ...]]]] = {
    # requests, Scrapy and UTF-8 all read it as the browser does.
    "identical": lambda n: (_repeat("<p>hello world</p>\n", n).encode(), HTML),
    # requests reads UTF-8 as ISO-8859-1: a few characters per line, on identical lines
    # (the repetition made difflib's alignment quadratic).
    "mojibake-repeated-lines": lambda n: (_repeat(PARAGRAPH, n).encode(), HTML),
    # The same on one line, no newline at all.
    "mojibake-one-line": lambda n: (_repeat(PARAGRAPH.strip(), n).encode(), HTML),
    # A few characters differ: Shift_JIS label against the windows-31j superset.
    "few-chars": lambda n: (
        (_repeat("今日は天気が良いですね。<br>\n", n) + "〜～").encode("cp932"),
        ("text/html; charset=Shift_JIS",),
    ),
    # UTF-16 read as UTF-8 and ISO-8859-1: every character differs, ASCII too.
    "whole-page-utf16": lambda n: (
        b"\xff\xfe" + _repeat("Grüße <p> aus Köln\n", n // 2).encode("utf-16-le"), HTML
    ),
    # windows-1251 read as UTF-8: U+FFFD runs in place of every word.
    "replacement-runs": lambda n: (
        b"<meta charset=windows-1251>" + _repeat("Погода в Москве.\n", n).encode("cp1251"), ()
    ),
    # Invalid UTF-8 declared as UTF-8: U+FFFD in the browser's text too.
    "invalid-utf8": lambda n: (_repeat("<p>\xff\xfe\xfd abc ", n).encode("latin-1"),
                               ("text/html; charset=utf-8",)),
    # One character repeated: ASCII, then a non-ASCII letter without a declaration.
    "one-ascii-char": lambda n: (b"a" * n, HTML),
    "one-letter": lambda n: (("é" * n).encode(), HTML),
    # Bytes with no structure at all.
    "random-bytes": lambda n: (bytes((i * 7919 + (i >> 3) * 31) % 256 for i in range(n)), HTML),
}


def _page(body: bytes, content_types: tuple[str, ...]) -> Page:
    return Page(kind=KIND_FILE, origin="page.html", body=body, content_types=content_types,
                url="http://www.example.de/page.html", status=200)


def count_calls(action: Callable[[], object]) -> int:
    """Python and C function calls made by ``action``."""
    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return calls


@pytest.fixture(scope="module")
def decoder() -> MiddlewareDecoder:
    return MiddlewareDecoder()


@pytest.mark.parametrize("name", PAGES)
def test_audit_cost_is_linear_in_page_size(name: str, decoder: MiddlewareDecoder) -> None:
    small, large = _page(*PAGES[name](SMALL)), _page(*PAGES[name](SMALL * GROWTH))
    records: list[Record] = []
    audit_page(small, decoder)  # warm-up: imports and caches
    work = [count_calls(lambda p=p: records.append(audit_page(p, decoder)))
            for p in (small, large)]
    assert records[1].audited, records[1]
    assert work[1] <= WORK_LIMIT * work[0] + WORK_SLACK, f"{work[0]} -> {work[1]} calls"
    cpu = times_within(lambda: audit_page(small, decoder), lambda: audit_page(large, decoder),
                       lambda small_time: TIME_LIMIT * small_time + 0.01)
    assert cpu[1] <= TIME_LIMIT * cpu[0] + 0.01, f"{cpu[0]:.4f}s -> {cpu[1]:.4f}s for {GROWTH}x"


def test_the_classes_of_difference_are_reached(decoder: MiddlewareDecoder) -> None:
    """The inputs above do make the defaults differ in the ways they are named for."""
    kinds = {
        name: {d: r.kind for d, r in audit_page(_page(*make(SMALL)), decoder).defaults.items()
               if r is not None}
        for name, make in PAGES.items()
    }
    assert set(kinds["identical"].values()) == {None}
    assert kinds["mojibake-repeated-lines"]["requests"] == "mojibake"
    assert kinds["few-chars"]["requests"] == "few_chars"
    assert kinds["whole-page-utf16"]["utf8"] == "mojibake"
    assert kinds["replacement-runs"]["utf8"] in ("mojibake", "replacement")


def test_counts_only_the_characters_that_differ() -> None:
    """Linear alignment keeps the count exact on the usual cases."""
    browser = _repeat(PARAGRAPH, 30_000)
    as_latin1 = browser.encode().decode("latin-1")
    assert differing(browser, as_latin1)[0] == 4 * browser.count("\n")  # ß ü ü ü per line
    assert differing("a〜b" * 1000, "a～b" * 1000) == (1000, "～" * 1000)
    # A kept BOM and a lost line: the rest still pairs off.
    count, _ = differing("x\n" + browser, "\ufeffx\n" + browser.replace(PARAGRAPH, "", 1))
    assert count == len(PARAGRAPH) + 1


def test_positional_count_matches_a_character_by_character_count() -> None:
    """The XOR of UTF-32 code units finds exactly the differing positions, astral and lone
    surrogates too."""
    from random import Random

    from scrapy_charset.tools.audit_severity import _positional

    rng = Random(7)
    alphabet = "ab\x00é€\x80\x9f\u0100\u0101\ud800\udfff\U0001f600\U0001f601\U0010ffff"
    for _ in range(2000):
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        b = "".join(rng.choice(alphabet) if rng.random() < 0.3 else c for c in a)
        differ = [y for x, y in zip(a, b, strict=True) if x != y]
        assert _positional(a, b) == (len(differ), "".join(differ)), (a, b)
