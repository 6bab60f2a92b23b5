"""How badly a default garbles a page: the characters that differ, their share of the text, and
the class of the difference.

Classes, from the most severe:

- ``mojibake``: most of the page's non-ASCII characters differ (the wrong encoding altogether);
- ``replacement``: U+FFFD characters the browser's text does not have (bytes the default's
  encoding could not decode);
- ``c1_controls``: only C1 controls (U+0080-U+009F) where the browser shows characters (ISO-8859-1
  for windows-1252: ``\\x80`` for ``€``);
- ``few_chars``: a few characters differ, as between a label and the superset a browser uses for
  it (``～`` against ``〜`` in Shift_JIS, ``￡`` against ``£``);
- ``bom``: only a byte order mark kept as U+FEFF.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import compress

CLASSES: tuple[str, ...] = ("mojibake", "replacement", "c1_controls", "few_chars", "bom")
MOJIBAKE_SHARE = 0.5  # of the page's non-ASCII characters
# Tokens looked ahead to pair the runs of two texts again after a difference.
WINDOW = 8

_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")
_LINES = re.compile(r"[^\n]+\n?|\n")
_ASCII = re.compile(r"([\x00-\x7f]+)")
_NONZERO = bytes([0] + [1] * 255)  # bytes.translate table: any non-zero byte to 1
_C1 = re.compile(r"[\x80-\x9f]")


@dataclass(frozen=True)
class Severity:
    chars: int  # characters that differ
    share: float  # of the browser text's characters
    kind: str  # one of CLASSES


def common_prefix(a: str, b: str) -> int:
    end = min(len(a), len(b))
    lo, hi = 0, end
    # Binary search on slices: C-speed comparisons, log(n) of them.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: str, b: str, limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _positional(a: str, b: str) -> tuple[int, str]:
    """Differing positions of two equally long strings, and the default's characters there.

    In C loops only: the XOR of both texts' UTF-32 code units, one flag byte per position."""
    if a == b:
        return 0, ""
    # surrogatepass: a lone surrogate (Python's UTF-7 decoder makes them) is a code unit too
    ua, ub = a.encode("utf-32-le", "surrogatepass"), b.encode("utf-32-le", "surrogatepass")
    xored = int.from_bytes(ua, "little") ^ int.from_bytes(ub, "little")
    nonzero = xored.to_bytes(len(ua), "little").translate(_NONZERO)
    # A code point has three significant bytes; a position differs where one of them does.
    flags = (
        int.from_bytes(nonzero[0::4], "little")
        | int.from_bytes(nonzero[1::4], "little")
        | int.from_bytes(nonzero[2::4], "little")
    ).to_bytes(len(a), "little")
    return len(a) - flags.count(0), "".join(compress(b, flags))


def _resync(a: list[int], b: list[int], i: int, j: int) -> tuple[int, int] | None:
    """The nearest ``(i + p, j + q)``, ``0 < p + q <= WINDOW``, where the tokens are equal."""
    na, nb = len(a), len(b)
    for step in range(1, WINDOW + 1):
        for p in range(step + 1):
            x, y = i + p, j + step - p
            if x < na and y < nb and a[x] == b[y]:
                return x, y
    return None


def align(a: list[int], b: list[int]) -> Iterator[tuple[int, int, int, int]]:
    """The stretches ``(i1, i2, j1, j2)`` where ``a[i1:i2]`` and ``b[j1:j2]`` differ, in a greedy
    alignment of two token sequences: equal tokens pair off in order; after a mismatch, the
    nearest equal pair within ``WINDOW`` tokens takes up the pairing again, and when there is
    none both sequences move on by ``WINDOW``. At most ``WINDOW + 1`` comparisons per token:
    linear, whatever the texts (``difflib`` is quadratic on long and repetitive pages)."""
    i = j = 0
    start: tuple[int, int] | None = None
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            if start is not None:
                yield start[0], i, start[1], j
                start = None
            i += 1
            j += 1
            continue
        if start is None:
            start = (i, j)
        found = _resync(a, b, i, j)
        i, j = found if found is not None else (i + WINDOW, j + WINDOW)
    i, j = min(i, len(a)), min(j, len(b))
    if start is not None or i < len(a) or j < len(b):
        first = start or (i, j)
        yield first[0], len(a), first[1], len(b)


def _count(stretches: list[tuple[str, str]]) -> tuple[int, str]:
    """Differing characters over stretches of (browser, default) text that differ: an equally
    long stretch counts its differing positions, any other its browser characters (or the
    default's, where the browser has none)."""
    same = [pair for pair in stretches if len(pair[0]) == len(pair[1])]
    count, chars = _positional("".join(x for x, _ in same), "".join(y for _, y in same))
    other = [pair for pair in stretches if len(pair[0]) != len(pair[1])]
    count += sum(len(x) if x else len(y) for x, y in other)
    return count, chars + "".join(y for _, y in other)


def _aligned(ta: list[str], tb: list[str]) -> list[tuple[str, str]]:
    """The differing stretches of two token lists, joined back into text."""
    ids: dict[str, int] = {}
    a = [ids.setdefault(t, len(ids)) for t in ta]
    b = [ids.setdefault(t, len(ids)) for t in tb]
    return [("".join(ta[i1:i2]), "".join(tb[j1:j2])) for i1, i2, j1, j2 in align(a, b)]


def _runs(a: str, b: str) -> list[tuple[str, str]] | None:
    """The differing non-ASCII stretches, paired by position, when both texts have the same
    ASCII runs (a wrong ASCII-compatible encoding, a kept BOM); else ``None``."""
    pa, pb = _ASCII.split(a), _ASCII.split(b)  # non-ASCII, ASCII, non-ASCII, ..., non-ASCII
    if pa[1::2] != pb[1::2]:
        return None
    return [(x, y) for x, y in zip(pa[0::2], pb[0::2], strict=True) if x != y]


def _stretches(a: str, b: str) -> list[tuple[str, str]]:
    """Stretches of ``a`` and ``b`` that differ: by runs when the ASCII runs agree, else by
    lines aligned (:func:`align`) and then by runs aligned within the lines that differ."""
    pairs = _runs(a, b)
    if pairs is not None:
        return pairs
    stretches: list[tuple[str, str]] = []
    for sa, sb in _aligned(_LINES.findall(a), _LINES.findall(b)):
        if len(sa) == len(sb):
            stretches.append((sa, sb))
            continue
        pairs = _runs(sa, sb)
        stretches.extend(
            pairs if pairs is not None else _aligned(_RUNS.findall(sa), _RUNS.findall(sb))
        )
    return stretches


def differing(browser: str, got: str) -> tuple[int, str]:
    """(characters of the browser's text that differ, the default's characters in their place).

    Linear in the texts' length whatever they hold: past the common prefix and suffix, runs of
    ASCII and of other characters pair off when the ASCII runs agree (where only the others
    count), else lines and then runs are aligned greedily (:func:`align`).
    """
    start = common_prefix(browser, got)
    end = common_suffix(browser, got, min(len(browser), len(got)) - start)
    a, b = browser[start : len(browser) - end], got[start : len(got) - end]
    if len(a) == len(b):
        return _positional(a, b)
    return _count(_stretches(a, b))


def _non_ascii(text: str) -> int:
    return len(text) - len(text.encode("ascii", "ignore"))


def severity(browser: str, got: str) -> Severity:
    """How ``got`` differs from the browser's text (which it does not equal)."""
    if got.lstrip("\ufeff") == browser.lstrip("\ufeff"):
        return Severity(abs(len(got) - len(browser)) or 1, 1 / max(len(browser), 1), "bom")
    chars, replaced = differing(browser, got)
    chars = max(chars, 1)
    share = min(chars / max(len(browser), 1), 1.0)
    if replaced and not _C1.sub("", replaced):
        kind = "c1_controls"
    elif chars >= MOJIBAKE_SHARE * max(_non_ascii(browser), 1) and chars > 2:
        kind = "mojibake"
    elif got.count("\ufffd") > browser.count("\ufffd"):
        kind = "replacement"
    else:
        kind = "few_chars"
    return Severity(chars, share, kind)


def worst(kinds: list[str]) -> str | None:
    """The most severe of these classes."""
    present = [CLASSES.index(k) for k in kinds if k in CLASSES]
    return CLASSES[min(present)] if present else None
