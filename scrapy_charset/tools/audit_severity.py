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
from dataclasses import dataclass
from difflib import SequenceMatcher

CLASSES: tuple[str, ...] = ("mojibake", "replacement", "c1_controls", "few_chars", "bom")
MOJIBAKE_SHARE = 0.5  # of the page's non-ASCII characters
# Token lists longer than this are compared by position only (bounded cost on huge pages).
MAX_TOKENS = 600

_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")
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
    """Differing positions of two equally long strings, and the default's characters there."""
    got = [y for x, y in zip(a, b, strict=True) if x != y]
    return len(got), "".join(got)


def differing(browser: str, got: str) -> tuple[int, str]:
    """(characters of the browser's text that differ, the default's characters in their place)."""
    start = common_prefix(browser, got)
    end = common_suffix(browser, got, min(len(browser), len(got)) - start)
    a, b = browser[start : len(browser) - end], got[start : len(got) - end]
    if len(a) == len(b):
        return _positional(a, b)
    ta, tb = _RUNS.findall(a), _RUNS.findall(b)
    if len(ta) + len(tb) > MAX_TOKENS:
        return max(len(a), len(b)), b
    count, replaced = 0, []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        sa, sb = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if len(sa) == len(sb):
            n, chars = _positional(sa, sb)
        else:
            n, chars = (len(sa) if sa else len(sb)), sb
        count += n
        replaced.append(chars)
    return count, "".join(replaced)


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
