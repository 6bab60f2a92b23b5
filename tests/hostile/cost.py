"""Adversarial inputs shared by the bounded-cost tests and ``benchmarks/bench_hostile.py``."""

from __future__ import annotations

import time
from collections.abc import Callable

# Bodies of about ``n`` bytes that make a hand-written scanner backtrack or loop per byte.
BODIES: dict[str, Callable[[int], bytes]] = {
    "meta-soup": lambda n: b"<meta " * (n // 6),
    "comment-soup": lambda n: b"<!--" * (n // 4),
    "attribute-soup": lambda n: b"<meta " + b"a=b " * (n // 4),
    "charset-eq-soup": lambda n: b"<meta charset=" * (n // 14),
    "lt-soup": lambda n: b"<" * n,
    "end-tag-soup": lambda n: b"</a" * (n // 3),
    "unknown-meta-in-head": lambda n: b"<head>" + b"<meta charset=nope>" * (n // 19),
    "content-meta-in-head": lambda n: b"<head>" + b"<meta name=a content=b>" * (n // 23),
    "unclosed-quote": lambda n: b"<head><meta content=\"" + b"'" * n,
    "http-equiv-charset-soup": (
        lambda n: b"<meta http-equiv=content-type content='" + b"charset=" * (n // 8)
    ),
    "xml-declaration": lambda n: b"<?xml version='1.0' encoding='" + b"a" * n,
    "undeclared-latin1": lambda n: "Grüße aus Köln. ".encode("latin-1") * (n // 16),
    "utf8-then-invalid": lambda n: "é".encode() * (n // 2) + b"\xe9",
    # Binary data served as text/html (an uncompressed image's white pixels, 0xFF padding):
    # every byte an invalid UTF-8 sequence of its own.
    "high-bytes": lambda n: b"\xff" * n,
    # UTF-8 text with a stray Latin-1 byte after every eight letters.
    "utf8-stray-bytes": lambda n: (("é" * 8).encode() + b"\xe9") * (n // 17),
    # The same in Cyrillic and CJK text: a stray byte after every few words or letters.
    "utf8-stray-in-cyrillic": lambda n: (("дом " * 4).encode() + b"\xe9") * (n // 29),
    "utf8-stray-in-cjk": lambda n: (("日本語" * 2).encode() + b"\xe9") * (n // 19),
    # Table cells of Japanese cut short at a byte limit (a character cut in two in most).
    "utf8-cut-cells": lambda n: b"".join(
        b"<td>" + ("価格と送料無料の日本語" * 2).encode()[: 13 + i % 17] + b"</td>"
        for i in range(n // 32)
    ),
}

# Content-Type header values of about ``n`` characters.
HEADERS: dict[str, Callable[[int], object]] = {
    "semicolons": lambda n: "text/html" + ";" * n,
    "escaped-quotes": lambda n: 'text/html; charset="' + '\\"' * (n // 2),
    "long-charset": lambda n: "text/html; charset=" + "a" * n,
    "commas": lambda n: "text/html," * (n // 10),
    "parameters": lambda n: "text/html; " + "x=y; " * (n // 5) + "charset=utf-8",
    "many-values": lambda n: ["text/html; charset=x"] * (n // 20),
}

# Byte strings that push decoders off their fast paths.
DECODER_INPUTS: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "iso-2022-jp-escapes": ("ISO-2022-JP", lambda n: b"\x1b$B" * (n // 3)),
    "iso-2022-jp-switching": ("ISO-2022-JP", lambda n: b"\x1b$B!<\x1b(B<" * (n // 9)),
    "iso-2022-jp-esc-at-ends": ("ISO-2022-JP", lambda n: b"\x1b(\x1b$\x1b" * (n // 5)),
    "gb18030-four-byte": ("gb18030", lambda n: b"\x81\x30\x81\x30" * (n // 4)),
    "gb18030-bad-four-byte": ("gb18030", lambda n: b"\x81\x30\xff\x30" * (n // 4)),
    "big5-lone-leads": ("Big5", lambda n: b"\x81" * n),
    "shift-jis-bad-trails": ("Shift_JIS", lambda n: b"\x81\x7f" * (n // 2)),
    "euc-jp-0x8f": ("EUC-JP", lambda n: b"\x8f\xa1" * (n // 2)),
    "utf-8-surrogates": ("UTF-8", lambda n: b"\xed\xa0\x80" * (n // 3)),
    "utf-16be-lone-surrogates": ("UTF-16BE", lambda n: b"\xd8\x00" * (n // 2)),
}


def best_time(
    function: Callable[[], object], repeat: int = 3, clock: Callable[[], float] = time.process_time
) -> float:
    """The fastest of ``repeat`` runs, in this process's CPU time: the least disturbed by a busy
    machine (wall-clock time also counts the time other processes hold the core)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        function()
        best = min(best, clock() - start)
    return best


def times_within(
    small: Callable[[], object],
    large: Callable[[], object],
    allowed: Callable[[float], float],
    attempts: int = 3,
) -> tuple[float, float]:
    """The best times of ``small`` and of ``large``, measured again (up to ``attempts`` times)
    while ``large`` takes longer than ``allowed(small's time)``. A test then asserts the bound:
    work that grows too fast fails every time, a machine busy for a moment (CI runs on two
    shared cores) not every time."""
    for _ in range(attempts):
        small_time, large_time = best_time(small), best_time(large, 2)
        if large_time <= allowed(small_time):
            break
    return small_time, large_time
