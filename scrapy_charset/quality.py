"""Scrapy-free checks for damaged text: U+FFFD replacement characters and mojibake.

Mojibake here means UTF-8 bytes that were decoded with a single-byte encoding, which leaves
reversible traces such as ``Ã©`` (for ``é``) or ``â€™`` (for ``’``). A sequence is counted only
when re-encoding it with that single-byte encoding gives a *valid* UTF-8 multi-byte sequence,
so genuine accented text (French, German, Vietnamese, Turkish, Icelandic...) is left alone.

Every check starts with a cheap test (``str.isascii()``, then a few byte tests and literal-led
regex searches on the UTF-8 form) so the common case costs almost nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from itertools import filterfalse
from typing import Any, Literal, NamedTuple

REPLACEMENT_CHARACTER = "\ufffd"

NormalForm = Literal["NFC", "NFD", "NFKC", "NFKD"]
NORMAL_FORMS: tuple[NormalForm, ...] = ("NFC", "NFD", "NFKC", "NFKD")


class Mojibake(NamedTuple):
    """One mis-decoded character: ``text[start:end]`` reads back as ``repaired``."""

    start: int
    end: int
    text: str
    repaired: str
    misread_as: str  # the single-byte encoding the UTF-8 bytes were read with


def _byte_to_char_table(codec: str) -> dict[int, str]:
    # Bytes 0x80-0xFF as a browser's single-byte decoder yields them; bytes the Python codec
    # leaves undefined map to the C1 control of the same value, as the WHATWG indexes do.
    table: dict[int, str] = {}
    for byte in range(0x80, 0x100):
        try:
            table[byte] = bytes([byte]).decode(codec)
        except UnicodeDecodeError:
            table[byte] = chr(byte)
    return table


def _char_class(chars: set[str]) -> str:
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"


def _bytes_alternation(sequences: set[bytes]) -> bytes:
    """A bytes pattern matching any of ``sequences``, grouped by all but their last byte."""
    by_head: dict[bytes, set[int]] = {}
    for data in sequences:
        by_head.setdefault(data[:-1], set()).add(data[-1])
    branches = [
        re.escape(head) + b"[" + b"".join(b"\\x%02x" % last for last in sorted(tails)) + b"]"
        for head, tails in sorted(by_head.items())
    ]
    return b"(?:" + b"|".join(branches) + b")"


def _utf8_prefilters(leads: set[str], cont: set[str]) -> tuple[tuple[int, re.Pattern[bytes]], ...]:
    """Patterns over the text's UTF-8 form for a lead character followed by a continuation
    character: one per first UTF-8 byte of the leads, so that each pattern starts with a
    literal byte and ``re`` skips to candidates with a fast scan (a pattern starting with a
    character class is tried at every position: over ten times slower on long text). Each
    comes with that byte: ``byte in data`` (a ``memchr``) rules the scan out cheaply."""
    by_first: dict[int, set[bytes]] = {}
    for char in leads:
        data = char.encode("utf-8")
        by_first.setdefault(data[0], set()).add(data[1:])
    tail = _bytes_alternation({char.encode("utf-8") for char in cont})
    return tuple(
        (first, re.compile(b"\\x%02x" % first + _bytes_alternation(rests) + tail))
        for first, rests in sorted(by_first.items())
    )


class _Misreading:
    """UTF-8 read as one single-byte encoding: which characters stand for which bytes."""

    def __init__(self, name: str, byte_tables: tuple[dict[int, str], ...], trusted: range) -> None:
        self.name = name
        # trusted: code points that count on their own as a 2-byte repair; others need a
        # neighbour (see find_mojibake), because a lone 2-byte repair can be chance.
        self.trusted = trusted
        to_byte: dict[int, int] = {}
        by_byte: dict[int, set[str]] = {}
        for table in byte_tables:
            for byte, char in table.items():
                to_byte.setdefault(ord(char), byte)
                by_byte.setdefault(byte, set()).add(char)
        # str.translate maps characters to latin-1 stand-ins for their bytes.
        self.to_latin1 = {cp: chr(byte) for cp, byte in to_byte.items()}

        def chars(lo: int, hi: int) -> set[str]:
            return {c for b in range(lo, hi + 1) for c in by_byte[b]}

        leads, cont = chars(0xC2, 0xF4), chars(0x80, 0xBF)
        self.lead_chars, self.continuation_chars = "".join(sorted(leads)), "".join(sorted(cont))
        # UTF-8 lead bytes C2-DF (2 bytes), E0-EF (3), F0-F4 (4), each followed by at least
        # one continuation byte; the exact length is checked when decoding.
        self.pattern = re.compile(f"{_char_class(leads)}{_char_class(cont)}+")
        # UTF-8 sequence length announced by each lead character's byte.
        self.lengths = {
            c: 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            for b in range(0xC2, 0xF5)
            for c in by_byte[b]
        }
        self.prefilters = _utf8_prefilters(leads, cont)
        # A prefilter match holds one of the first UTF-8 bytes of the leads and one of those of
        # the continuation characters.
        self.first_bytes = (
            {char.encode("utf-8")[0] for char in leads},
            {char.encode("utf-8")[0] for char in cont},
        )


_WINDOWS_1252 = _byte_to_char_table("cp1252")
_LATIN_1 = {byte: chr(byte) for byte in range(0x80, 0x100)}
_WINDOWS_1251 = _byte_to_char_table("cp1251")

_MISREADINGS = (
    # windows-1252 and ISO-8859-1 together: pages labelled latin-1 that carry C1 controls.
    # Trusted repairs: Latin-1 Supplement and Latin Extended-A (U+0080-U+017F).
    _Misreading("windows-1252", (_WINDOWS_1252, _LATIN_1), range(0x80, 0x180)),
    # UTF-8 Cyrillic read as windows-1251 ("РџСЂРёРІРµС‚"): no lone 2-byte repair is trusted.
    _Misreading("windows-1251", (_WINDOWS_1251,), range(0)),
)

_PREFILTERS = tuple(p for m in _MISREADINGS for p in m.prefilters)
# Text without any of these bytes has no prefilter match: for windows-1252 they are the first
# bytes of all continuation characters, for windows-1251 those of all leads (Cyrillic, D0 and
# D1). may_have_mojibake spells them out (a loop over them costs a third more).
_GATE_BYTES = frozenset({0xC2, 0xC5, 0xC6, 0xCB, 0xD0, 0xD1, 0xE2})
if not all(
    leads <= _GATE_BYTES or cont <= _GATE_BYTES
    for leads, cont in (m.first_bytes for m in _MISREADINGS)
):
    raise AssertionError("may_have_mojibake's byte test misses prefilter matches")


def count_replacements(text: str) -> int:
    """How many U+FFFD REPLACEMENT CHARACTERs ``text`` holds."""
    if REPLACEMENT_CHARACTER not in text:
        return 0
    return text.count(REPLACEMENT_CHARACTER)


def may_have_mojibake(text: str) -> bool:
    """Cheap pre-check: False means :func:`find_mojibake` would surely find nothing."""
    if text.isascii():
        return False
    data = text.encode("utf-8", "surrogatepass")
    # Genuine text without typography, symbols or Cyrillic has none of the _GATE_BYTES: a few
    # memchr calls rule every prefilter out. The likeliest come first, so that text with one
    # stops early: E2 (’ “ – … € ™), C2 (no-break space, « », ©, °), C5 and C6 (Central
    # European and Vietnamese letters).
    if not (
        0xE2 in data
        or 0xC2 in data
        or 0xC5 in data
        or 0xC6 in data
        or 0xCB in data
        or 0xD0 in data
        or 0xD1 in data
    ):
        return False
    for byte, prefilter in _PREFILTERS:
        if byte in data and prefilter.search(data) is not None:
            return True
    return False


def _dict_values_clean_python(item: dict[Any, Any], keys: tuple[Any, ...] | None = None) -> int:
    # One check over all non-ASCII values at once: a candidate spanning two values only makes
    # the answer 0, which is allowed.
    try:
        joined = "".join(filterfalse(_isascii, item.values()))
    except TypeError:  # a value that is not text (the unbound str.isascii refuses it)
        return 0
    if joined and ("\ufffd" in joined or may_have_mojibake(joined)):
        return 0
    return 2 if keys is not None and tuple(item) == keys else 1


_isascii = str.isascii  # unbound: TypeError for anything but text, and no subclass override

# dict_values_clean(item, keys=None): whether every value of a dict is text with no U+FFFD
# and no mojibake candidate. Non-zero means count_replacements and find_mojibake find nothing
# in any value (2: and the item's keys are the tuple ``keys``, in order; else 1); 0 only means
# the values need those exact checks (or one is not text). Compiled (_text_speedups.c) when
# the package was built with a C compiler.
dict_values_clean: Callable[..., int]
try:
    from . import _text_speedups
except ImportError:  # built without a C compiler
    dict_values_clean = _dict_values_clean_python
else:
    _text_speedups.configure([(m.lead_chars, m.continuation_chars) for m in _MISREADINGS])
    dict_values_clean = _text_speedups.dict_values_clean


def _repairs(text: str, misreading: _Misreading) -> Iterator[Mojibake]:
    lengths, to_latin1, name = misreading.lengths, misreading.to_latin1, misreading.name
    for match in misreading.pattern.finditer(text):
        start, end = match.span()
        length = lengths[text[start]]
        if end - start < length:
            continue
        chunk = text[start : start + length]
        try:
            repaired = chunk.translate(to_latin1).encode("latin-1").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue  # overlong, surrogate or out-of-range sequence: not UTF-8
        yield Mojibake(start, start + length, chunk, repaired, name)


def _plausible(repairs: Iterable[Mojibake], trusted: range) -> Iterator[Mojibake]:
    # A 3- or 4-byte repair is kept on its own: a lead byte followed by exactly the right
    # continuation bytes is very unlikely in real text. A 2-byte repair outside ``trusted``
    # (e.g. German "ß“" -> U+07D3) is kept only inside a run of at least two adjacent repairs,
    # the way a mis-decoded Cyrillic or Greek word looks.
    # Streams: at most one repair is held (memory stays bounded on long damaged text).
    single: Mojibake | None = None  # the first repair of a run, until a second one joins it
    in_run = False  # the run already has two or more repairs: each one is kept
    end = -1
    for repair in repairs:
        if repair.start != end:  # a new run starts: settle the one before
            if single is not None and (len(single.text) > 2 or ord(single.repaired) in trusted):
                yield single
            single, in_run = None, False
        end = repair.end
        if in_run:
            yield repair
        elif single is None:
            single = repair
        else:
            yield single
            yield repair
            single, in_run = None, True
    if single is not None and (len(single.text) > 2 or ord(single.repaired) in trusted):
        yield single


def find_mojibake(text: str, *, prechecked: bool = False) -> list[Mojibake]:
    """Every mis-decoded UTF-8 character in ``text``, from the first misreading that finds any.

    ``prechecked``: the caller already knows :func:`may_have_mojibake` is True.
    """
    if not prechecked and not may_have_mojibake(text):
        return []
    for misreading in _MISREADINGS:
        kept = list(_plausible(_repairs(text, misreading), misreading.trusted))
        if kept:
            return kept
    return []


def count_mojibake(text: str, *, prechecked: bool = False) -> int:
    """How many mis-decoded UTF-8 characters ``text`` holds (0 for genuine text), counted
    without a record per character."""
    if not prechecked and not may_have_mojibake(text):
        return 0
    for misreading in _MISREADINGS:
        count = sum(1 for _ in _plausible(_repairs(text, misreading), misreading.trusted))
        if count:
            return count
    return 0


def normalize(text: str, form: NormalForm) -> str:
    """Unicode normalization (``unicodedata``); returns ``text`` itself when already normal.

    NFKC folds compatibility characters: fullwidth digits ``１２３`` become ``123`` and the
    FULLWIDTH TILDE U+FF5E becomes ``~``; the WAVE DASH U+301C has no compatibility mapping and
    stays as it is under every form.
    """
    if text.isascii() or unicodedata.is_normalized(form, text):
        return text
    return unicodedata.normalize(form, text)
