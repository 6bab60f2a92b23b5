"""Scrapy-free checks for damaged text: U+FFFD replacement characters and mojibake.

Mojibake here means UTF-8 bytes that were decoded with a single-byte encoding, which leaves
reversible traces such as ``Ã©`` (for ``é``) or ``â€™`` (for ``’``). A sequence is counted only
when re-encoding it with that single-byte encoding gives a *valid* UTF-8 multi-byte sequence,
so genuine accented text (French, German, Vietnamese, Turkish, Icelandic...) is left alone.

Every check starts with a cheap test (``str.isascii()``, then a few byte tests and literal-led
regex searches on the UTF-8 form) so the common case costs almost nothing.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from itertools import filterfalse, islice
from typing import Any, Literal

from ._namedtuple import NamedTuple
from .encoding.fast import charmap_table

REPLACEMENT_CHARACTER = "\ufffd"
_UNDECODED: Any = object()

NormalForm = Literal["NFC", "NFD", "NFKC", "NFKD"]
NORMAL_FORMS: tuple[NormalForm, ...] = ("NFC", "NFD", "NFKC", "NFKD")


class Mojibake(NamedTuple):
    """One mis-decoded character: ``text[start:end]`` reads back as ``repaired``."""

    start: int
    end: int
    text: str
    repaired: str
    misread_as: str  # the single-byte encoding the UTF-8 bytes were read with


# Mojibake((start, end, text, repaired, misread_as)) without the named tuple's own __new__, a
# Python function (one call per garbled word is much of the exact count's time).
_mojibake: Callable[[tuple[int, int, str, str, str]], Mojibake] = functools.partial(
    tuple.__new__, Mojibake  # type: ignore[arg-type]
)


def _byte_to_char_table(encoding_name: str) -> str:
    """Bytes 0x80-0xFF as a browser's single-byte decoder yields them (byte 0x80 + i at index
    i): the Encoding Standard's index, without importing Python's codec modules."""
    return charmap_table(encoding_name)[0x80:]


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
    """UTF-8 read as one single-byte encoding: which characters stand for which bytes.

    Only the characters are worked out when the module is imported (the compiled clean-text
    check needs them); the tables and patterns of the exact checks on first use."""

    def __init__(self, index: int, name: str, byte_tables: tuple[str, ...]) -> None:
        self.index = index  # its place in _MISREADINGS (the compiled tables' misreading)
        self.name = name
        self.byte_tables = byte_tables  # each: the characters for bytes 0x80-0xFF
        # UTF-8 lead bytes C2-F4 and continuation bytes 80-BF.
        self.lead_chars = "".join(sorted({c for t in byte_tables for c in t[0x42:0x75]}))
        self.continuation_chars = "".join(sorted({c for t in byte_tables for c in t[:0x40]}))
        self.decoded: dict[str, str | None] = {}  # stretch -> what it reads as (see _decoded)

    @functools.cached_property
    def to_latin1(self) -> dict[int, str]:
        """For str.translate: characters to latin-1 stand-ins for their bytes."""
        to_byte: dict[int, int] = {}
        for table in self.byte_tables:
            for offset, char in enumerate(table):
                to_byte.setdefault(ord(char), 0x80 + offset)
        return {cp: chr(byte) for cp, byte in to_byte.items()}

    @functools.cached_property
    def lengths(self) -> dict[str, int]:
        """UTF-8 sequence length announced by each lead character's byte."""
        return {
            table[byte - 0x80]: 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            for byte in range(0xC2, 0xF5)
            for table in self.byte_tables
        }

    @functools.cached_property
    def first_bytes(self) -> tuple[set[int], set[int]]:
        """A prefilter match holds one of the first UTF-8 bytes of the leads and one of those
        of the continuation characters."""
        return (
            {char.encode("utf-8")[0] for char in self.lead_chars},
            {char.encode("utf-8")[0] for char in self.continuation_chars},
        )

    # The patterns are compiled on first use, not at import (most crawls never need them: the
    # clean-text check needs only the characters).
    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """UTF-8 lead bytes C2-DF (2 bytes), E0-EF (3), F0-F4 (4), each followed by at least
        one continuation byte; the exact length is checked when decoding."""
        leads, continuations = set(self.lead_chars), set(self.continuation_chars)
        return re.compile(f"{_char_class(leads)}{_char_class(continuations)}+")

    @functools.cached_property
    def run_pattern(self) -> re.Pattern[str]:
        """A region holding adjacent stretches of the pattern: from a lead character to the
        last continuation character of the leads and continuations that follow. (One class
        repeated, not a repeated group, which would keep state per stretch matched.)"""
        leads, continuations = set(self.lead_chars), set(self.continuation_chars)
        either = _char_class(leads | continuations)
        return re.compile(f"{_char_class(leads)}{either}*{_char_class(continuations)}")

    @functools.cached_property
    def prefilters(self) -> tuple[tuple[int, re.Pattern[bytes]], ...]:
        return _utf8_prefilters(set(self.lead_chars), set(self.continuation_chars))


_WINDOWS_1252 = _byte_to_char_table("windows-1252")
_LATIN_1 = bytes(range(0x80, 0x100)).decode("latin-1")
_WINDOWS_1251 = _byte_to_char_table("windows-1251")
_WINDOWS_1250 = _byte_to_char_table("windows-1250")

_MISREADINGS = (
    # windows-1252 and ISO-8859-1 together: pages labelled latin-1 that carry C1 controls.
    _Misreading(0, "windows-1252", (_WINDOWS_1252, _LATIN_1)),
    # Cyrillic read as windows-1251 ("РџСЂРёРІРµС‚"), and Latin text too ("garГ§on").
    _Misreading(1, "windows-1251", (_WINDOWS_1251,)),
    # Central European pages: "Ĺ˝luĹĄouÄŤkĂ˝", "LiĂ¨ge".
    _Misreading(2, "windows-1250", (_WINDOWS_1250,)),
)



# Text without any of these bytes has no prefilter match: for windows-1252 and windows-1250
# they are the first bytes of all continuation characters, for windows-1251 those of all
# leads (Cyrillic, D0 and D1). may_have_mojibake spells them out (a loop costs a third more).
_GATE_BYTES = frozenset({0xC2, 0xC4, 0xC5, 0xC6, 0xCB, 0xD0, 0xD1, 0xE2})


@functools.cache
def _prefilters() -> tuple[tuple[int, re.Pattern[bytes]], ...]:
    if not all(
        leads <= _GATE_BYTES or cont <= _GATE_BYTES
        for leads, cont in (m.first_bytes for m in _MISREADINGS)
    ):
        raise AssertionError("may_have_mojibake's byte test misses prefilter matches")
    return tuple(p for m in _MISREADINGS for p in m.prefilters)


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
        or 0xC4 in data
        or 0xC6 in data
        or 0xCB in data
        or 0xD0 in data
        or 0xD1 in data
    ):
        return False
    for byte, prefilter in _prefilters():
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


def _unclean_positions_python(item: dict[Any, Any], keys: tuple[Any, ...]) -> list[int] | None:
    names = tuple(item)
    if names != keys or not all(type(name) is str for name in names):
        return None
    if not all(type(value) is str for value in item.values()):
        return None
    return [i for i, value in enumerate(item.values()) if not _text_clean_python(value)]


def _stretch_counts_python(text: str) -> tuple[int, ...]:
    # (counted as they stream by: a list of matches would take memory per damaged character)
    return tuple(sum(1 for _ in m.pattern.finditer(text)) for m in _MISREADINGS)


def _text_clean_python(text: str) -> bool:
    return "\ufffd" not in text and not may_have_mojibake(text)


def _mojibake_clean_python(text: str) -> bool:
    return not may_have_mojibake(text)


REGION_BATCH = 64  # regions decoded_regions gives at a time


def _decoded_regions_python(
    text: str, misreading: int, start: int
) -> list[tuple[int, int, str | None]]:
    # (the matches of run_pattern from start, each with _decoded of its characters)
    found = _MISREADINGS[misreading]
    matches = islice(found.run_pattern.finditer(text, start), REGION_BATCH)
    return [(match.start(), match.end(), _decoded(match.group(), found)) for match in matches]


def _compiled_configuration() -> list[tuple[str, str, str, str, bytes]]:
    """What _text_speedups.configure takes: each misreading's lead and continuation characters,
    the UTF-8 length each lead announces, and its characters with the bytes they stand for."""
    return [
        (
            m.lead_chars,
            m.continuation_chars,
            "".join(str(m.lengths[c]) for c in m.lead_chars),
            "".join(chr(cp) for cp in m.to_latin1),
            bytes(ord(byte) for byte in m.to_latin1.values()),
        )
        for m in _MISREADINGS
    ]


_isascii = str.isascii  # unbound: TypeError for anything but text, and no subclass override

# dict_values_clean(item, keys=None): whether every value of a dict is text with no U+FFFD
# and no mojibake candidate. Non-zero means count_replacements and find_mojibake find nothing
# in any value (2: and the item's keys are the tuple ``keys``, in order; else 1); 0 only means
# the values need those exact checks (or one is not text). Compiled (_text_speedups.c) when
# the package was built with a C compiler.
dict_values_clean: Callable[..., int]
# unclean_positions(item, keys): where the dict's keys are the tuple ``keys``, in order (exact
# str), and every value is exactly a str, the positions of the values text_clean rejects, in
# order; else None.
unclean_positions: Callable[[dict[Any, Any], tuple[Any, ...]], list[int] | None]
# text_clean(text): True means the text holds no U+FFFD and count_mojibake finds nothing
# (False only means the exact checks must look).
text_clean: Callable[[str], bool]
# mojibake_clean(text): True means count_mojibake finds nothing (U+FFFD or not).
mojibake_clean: Callable[[str], bool]
# stretch_counts(text): for each misreading, how many matches its pattern has in the text.
stretch_counts: Callable[[str], tuple[int, ...]]
# decoded_regions(text, i, start): (start, end, decoded) for the first REGION_BATCH matches of
# _MISREADINGS[i].run_pattern from index start, in order; decoded is what the match's characters
# read as in UTF-8 (_decoded), or None. See _regions.
decoded_regions: Callable[[str, int, int], list[tuple[int, int, str | None]]]
# tally(text, i): _tally_python(text, _MISREADINGS[i]) in one compiled pass, or None where a
# region must be taken stretch by stretch (None: not compiled). See _tally.
tally: Callable[[str, int], tuple[int, int, int] | None] | None
try:
    from . import _text_speedups
except ImportError:  # built without a C compiler
    dict_values_clean = _dict_values_clean_python
    unclean_positions = _unclean_positions_python
    text_clean = _text_clean_python
    mojibake_clean = _mojibake_clean_python
    stretch_counts = _stretch_counts_python
    decoded_regions = _decoded_regions_python
    tally = None
else:
    _text_speedups.configure(_compiled_configuration())
    dict_values_clean = _text_speedups.dict_values_clean
    unclean_positions = _text_speedups.unclean_positions
    text_clean = _text_speedups.text_clean
    mojibake_clean = _text_speedups.mojibake_clean
    stretch_counts = _text_speedups.stretch_counts
    decoded_regions = _text_speedups.decoded_regions
    tally = _text_speedups.tally


def _decoded(chunk: str, misreading: _Misreading) -> str | None:
    """What ``chunk`` (characters of the misreading only) reads as in UTF-8, or None when its
    bytes are not valid UTF-8 (overlong, surrogate, truncated, a stray continuation byte)."""
    cache = misreading.decoded
    repaired = cache.get(chunk, _UNDECODED)
    if repaired is _UNDECODED:
        try:
            repaired = chunk.translate(misreading.to_latin1).encode("latin-1").decode("utf-8")
        except ValueError:  # (UnicodeError is one)
            repaired = None
        if len(chunk) <= 32:  # short stretches and words repeat within and across texts
            if len(cache) >= 4096:
                cache.clear()
            cache[chunk] = repaired
    return repaired


def _candidates(
    text: str, misreading: _Misreading, failed: list[int] | None = None
) -> Iterator[Mojibake]:
    """Every stretch that re-encodes with the misreading to one valid UTF-8 character;
    ``failed[0]`` counts those that look like one but are not UTF-8.

    Adjacent stretches come as one region (``run_pattern``): when the whole region is valid
    UTF-8 (then it is nothing but adjacent stretches) of two or more characters that are all
    text, it comes as one Mojibake whose ``repaired`` holds them all (each of them evidence: a
    mis-decoded word, see _judged), so that garbled text costs one step per word, not per
    character. Otherwise the region is taken stretch by stretch (no stretch crosses a
    region's ends). The regions and what they read as come from one compiled pass
    (``decoded_regions``), so that a long text costs its garbled words, not its length."""
    name = misreading.name
    for start, end, whole in _regions(text, misreading.index):
        if whole is not None and (len(whole) == 1 or all(map(_is_text, whole))):
            if not (end - start == 2 and _starts_a_word(text, start, misreading)):
                yield _mojibake((start, end, text[start:end], whole, name))
            continue
        for first, last, chunk, repaired in _stretches(text, start, end, misreading, failed):
            yield _mojibake((first, last, chunk, repaired, name))


def _stretches(
    text: str, start: int, end: int, misreading: _Misreading, failed: list[int] | None
) -> Iterator[tuple[int, int, str, str]]:
    """The stretches of the region ``text[start:end]`` taken one by one (it is not UTF-8 as a
    whole, or reads as a character that is not text): each that is one UTF-8 character, as
    (start, end, chunk, repaired); ``failed[0]`` counts those that are not."""
    lengths = misreading.lengths
    for match in misreading.pattern.finditer(text, start, end):
        first, last = match.span()
        length = lengths[text[first]]
        chunk = text[first : first + length]
        repaired = None if last - first < length else _decoded(chunk, misreading)
        if repaired is None:
            if failed is not None:
                failed[0] += 1
            continue
        if not (length == 2 and _starts_a_word(text, first, misreading)):
            yield first, first + length, chunk, repaired


def _regions(text: str, misreading: int) -> Iterator[tuple[int, int, str | None]]:
    """Every region of decoded_regions, a batch at a time (memory bounded on a huge text: no
    later region starts inside one, whose run holds no continuation character after it)."""
    start = 0
    while True:
        batch = decoded_regions(text, misreading, start)
        yield from batch
        if len(batch) < REGION_BATCH:
            return
        start = batch[-1][1]


def _starts_a_word(text: str, start: int, misreading: _Misreading) -> bool:
    """Whether the two-character stretch at ``start`` begins a capitalised Cyrillic word
    ("Він", "Рік", "Сёння"): a capital, a lowercase letter, then a lowercase Cyrillic letter
    that starts no whole sequence of the misreading. Read as mojibake, that letter would stand
    for a UTF-8 lead byte with too few continuation bytes after it (windows-1251's а-ф), for a
    byte UTF-8 never uses (х-я) or for a stray continuation byte (і, ё): broken UTF-8, so the
    stretch is not a mis-decoded character. (When a whole sequence does start there, the two
    are adjacent candidates, judged as a run.)"""
    lead, cont, after = text[start], text[start + 1], text[start + 2 : start + 3]
    if not (
        after
        and lead.isupper()
        and cont.islower()
        and after.islower()
        and _script(lead) == _script(after) == "CYRILLIC"
    ):
        return False
    length = misreading.lengths.get(after)
    if length is None:
        return True
    following = text[start + 3 : start + 2 + length]
    return len(following) < length - 1 or not all(
        char in misreading.continuation_chars for char in following
    )


# What a repaired character may be. Modifier letters, other numbers (but Latin-1's ² ³ ¹ ¼ ½
# ¾), controls and unassigned code points are what chance gives: "ВІКІ" would read "²ʲ".
_TEXT_CATEGORIES = frozenset(
    {"Lu", "Ll", "Lt", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf",
     "Po", "Sm", "Sc", "Sk", "So", "Zs"}
)
# Characters that follow a letter in genuine text: a capital letter and one of these ("KESÄ"
# + no-break space, "VIELÄ…", "”NÄ”", "AHÅ™") is not evidence of mojibake on its own.
_AFTER_LETTERS = frozenset("\u00a0\u00ad’‘”“„‚»«›‹…–—•·™®©°´¡¿")
_TYPOGRAPHY = frozenset({"Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "So", "Zs", "Cf"})


@functools.lru_cache(maxsize=4096)
def _is_text(char: str) -> bool:
    return unicodedata.category(char) in _TEXT_CATEGORIES or "\u00b2" <= char <= "\u00be"


@functools.lru_cache(maxsize=4096)
def _script(char: str) -> str:
    return unicodedata.name(char, "?").split(" ", 1)[0] if char.isalpha() else ""


def _strong(repair: Mojibake, text: str) -> bool:
    """Whether one repair with no repaired neighbour is evidence enough on its own."""
    before = text[repair.start - 1] if repair.start else " "
    after = text[repair.end] if repair.end < len(text) else " "
    return _strong_between(repair.text, repair.repaired, repair.misread_as, before, after)


@functools.lru_cache(maxsize=8192)
def _strong_between(chunk: str, repaired: str, misread_as: str, before: str, after: str) -> bool:
    """_strong for the stretch ``chunk`` read as ``repaired``, between ``before`` and
    ``after`` (the same stretches in the same places recur: cached)."""
    if not _is_text(repaired):
        return False
    if len(chunk) > 2:  # 3 or 4 bytes: typography and symbols (’ € ✔ 😀) are evidence,
        if unicodedata.category(repaired) in _TYPOGRAPHY:  # and a Latin letter that fits
            return True  # the word ("Viá»‡t"); a lone CJK letter may be chance
        return _script(repaired) == "LATIN" and _fits_case(repaired, before, after)
    lead, cont = chunk[0], chunk[1]
    if "\x80" <= cont <= "\x9f":  # a C1 control after a letter: never in genuine text
        return True
    if not lead.isalpha() or "\u0250" <= repaired <= "\u02ff":  # "5×£35"; IPA: chance
        return False
    if (
        misread_as != "windows-1251"
        and lead in "ÂÃĂ"
        and (cont not in _AFTER_LETTERS or not repaired.isalpha() or after.isalpha())
        and cont not in "’‘"
    ):  # UTF-8 for Latin-1 letters and symbols: "Ã©", "Ã‰", "Â°", "MÃ–BEL"
        return True
    script = _script(lead)
    if not cont.isalpha() and cont not in _AFTER_LETTERS and _script(repaired) != script:
        return True  # "Ð¸", "Î³": a letter and a symbol for a letter of another script
    if (before.isalpha() and _script(before) != script) or (
        not before.isalpha() and after.isalpha() and _script(after) != script
    ):  # a Cyrillic letter inside a Latin word ("garГ§on", "Гјber")
        return True
    if repaired.isupper() and cont not in _AFTER_LETTERS and (before.isupper() or after.isupper()):
        return True  # a capital from a letter and a letter or odd sign among capitals: "ÅšWI"
    inside_a_word = before.isalpha() and after.isalpha()  # "cÅ“ur"; not "”NÄ”" nor "Ã’s"
    return (inside_a_word or cont not in "’‘”“„‚") and _fits_case(repaired, before, after)


def _fits_case(repaired: str, before: str, after: str) -> bool:
    """A repaired letter whose case fits the word around it: "siÄ™", "Å›wiat", "SÃ¸ren",
    "Å\u00a0koda", but not "VIELÄ…" or "KESÄ\u00a0"."""
    if repaired.islower():
        return before.islower() or after.islower()
    return not before.isalpha() and after.islower()


def _judged(
    text: str, misreading: _Misreading, failed: list[int] | None = None
) -> Iterator[tuple[Mojibake, bool]]:
    """Each candidate with whether it is evidence on its own. Two or more adjacent candidates
    whose repairs are text (a mis-decoded word: "ÐŸÑ€Ð¸Ð²ÐµÑ‚") are; a lone candidate is
    judged with its neighbours (see _strong). Streams: at most one candidate is held."""
    pending: Mojibake | None = None  # the first of a run, until a second one joins it
    in_run = False
    end = -1
    for candidate in _candidates(text, misreading, failed):
        if len(candidate.repaired) > 1:  # a whole mis-decoded word (see _candidates)
            if pending is not None:
                yield pending, _strong(pending, text)
            pending, in_run, end = None, False, candidate.end
            yield candidate, True
            continue
        is_text = _is_text(candidate.repaired)
        if candidate.start != end or not is_text:  # the run before ends here
            if pending is not None:
                yield pending, _strong(pending, text)
            pending, in_run = None, False
        end = candidate.end
        if not is_text:
            yield candidate, False
        elif in_run:
            yield candidate, True
        elif pending is None:
            pending = candidate
        else:
            yield pending, True
            yield candidate, True
            pending, in_run = None, True
    if pending is not None:
        yield pending, _strong(pending, text)


NEAR = 12  # characters on one line: how close strong evidence must be for a weak one to count


def _near(text: str, end: int, start: int) -> bool:
    return end + NEAR >= start and "\n" not in text[end:start]


def _kept(
    text: str, misreading: _Misreading, failed: list[int] | None = None
) -> Iterator[Mojibake]:
    """The candidates that count: strong ones, and weak ones (``Ð¸``, ``Ä…``) within NEAR
    characters of a strong one on the same line. Streams: only weak ones within reach are
    held."""
    waiting: deque[Mojibake] = deque()  # weak candidates after the last strong one
    strong_end = -NEAR - 1
    for candidate, strong in _judged(text, misreading, failed):
        if strong:
            while waiting:
                weak = waiting.popleft()
                if _near(text, weak.end, candidate.start):
                    yield weak
            strong_end = candidate.end
            yield candidate
        elif _near(text, strong_end, candidate.start):
            yield candidate
        else:
            while waiting and waiting[0].end + NEAR < candidate.start:
                waiting.popleft()  # too far from anything strong to come
            waiting.append(candidate)


def _tally_python(text: str, misreading: _Misreading) -> tuple[int, int, int]:
    """The characters the kept repairs give (a whole word counts its characters: see
    _candidates), the characters they take, and the stretches that are not UTF-8."""
    failed = [0]
    count = explained = 0
    for repair in _kept(text, misreading, failed):
        count += len(repair.repaired)
        explained += len(repair.text)
    return count, explained, failed[0]


def _tally(text: str, misreading: _Misreading) -> tuple[int, int, int]:
    """_tally_python, in one compiled pass (a region taken stretch by stretch is asked of
    _stretches_at; tally gives None only where too many weak candidates wait)."""
    if tally is not None:
        found = tally(text, misreading.index)
        if found is not None:
            return found
    return _tally_python(text, misreading)


def _starts_a_word_at(text: str, start: int, misreading: int) -> bool:
    """_starts_a_word for the compiled tally."""
    return _starts_a_word(text, start, _MISREADINGS[misreading])


def _stretches_at(
    text: str, start: int, end: int, misreading: int
) -> tuple[list[tuple[int, int, str]], int]:
    """_stretches for the compiled tally: each stretch's start, end and repaired character,
    and how many are not UTF-8."""
    failed = [0]
    found = [
        (first, last, repaired)
        for first, last, _, repaired in _stretches(
            text, start, end, _MISREADINGS[misreading], failed
        )
    ]
    return found, failed[0]


if tally is not None:
    _text_speedups.configure_rules(
        _is_text,
        _strong_between,
        _starts_a_word_at,
        tuple(m.name for m in _MISREADINGS),
        _stretches_at,
    )


def _best_misreading(text: str) -> tuple[_Misreading | None, int]:
    """The misreading that explains most of the text, and how many characters it repairs.

    Text that the repairs explain only in part is left alone, as in ftfy: a single
    two-character repair beside genuine non-ASCII text ("Bremer/Mccoy – DrÃ¥ber"), or fewer
    repairs than stretches that look like a misreading's but are not UTF-8 (a hopeless
    garble). Misreadings are judged in order of their pattern matches, and only while one
    could still beat the best so far (its matches bound what it can count).
    """
    bounds = stretch_counts(text)
    best, best_count, failures = None, 0, 0
    # Most matches first, ties in _MISREADINGS' order (a reversed sort keeps them in order).
    for index in sorted(range(len(bounds)), key=bounds.__getitem__, reverse=True):
        bound, misreading = bounds[index], _MISREADINGS[index]
        if bound <= best_count or bound < failures:
            break  # (sorted: no later misreading can do better)
        count, explained, failed = _tally(text, misreading)
        failures = max(failures, failed)
        if count <= best_count or failures > count:
            continue
        if count == 1 and explained == 2:  # one two-character repair
            others = text.replace(" ", "")
            if len(others) - len(others.encode("ascii", "ignore")) > explained:  # non-ASCII
                continue
        best, best_count = misreading, count
    return best, best_count


def find_mojibake(text: str, *, prechecked: bool = False) -> list[Mojibake]:
    """Every mis-decoded UTF-8 character in ``text``, read back with the misreading that
    explains most of it (windows-1252 / ISO-8859-1, windows-1251 or windows-1250).

    A stretch counts when it is evidence on its own (a mis-decoded word, typography such as
    ``â€™``, ``Ã©``, a letter of another script inside a word, a C1 control), or when such
    evidence is near (then the weaker ``Ð¸`` or ``Ä…`` count too). Capitals
    next to punctuation (``KESÄ`` + no-break space, ``VIELÄ…``) are not evidence on their own.

    ``prechecked``: the caller already knows :func:`may_have_mojibake` is True.
    """
    if not prechecked and not may_have_mojibake(text):
        return []
    misreading, _ = _best_misreading(text)
    return [] if misreading is None else list(_one_by_one(_kept(text, misreading)))


def _one_by_one(found: Iterator[Mojibake]) -> Iterator[Mojibake]:
    """Each mis-decoded character alone (_candidates gives whole words at once)."""
    for repair in found:
        if len(repair.repaired) == 1:
            yield repair
            continue
        start = repair.start
        for char in repair.repaired:
            end = start + len(char.encode("utf-8"))  # one stand-in character per byte
            chunk = repair.text[start - repair.start : end - repair.start]
            yield Mojibake(start, end, chunk, char, repair.misread_as)
            start = end


def count_mojibake(text: str, *, prechecked: bool = False) -> int:
    """How many mis-decoded UTF-8 characters ``text`` holds (0 for genuine text), counted
    without a record per character."""
    if not prechecked and not may_have_mojibake(text):
        return 0
    return _best_misreading(text)[1]


def normalize(text: str, form: NormalForm) -> str:
    """Unicode normalization (``unicodedata``); returns ``text`` itself when already normal.

    NFKC folds compatibility characters: fullwidth digits ``１２３`` become ``123`` and the
    FULLWIDTH TILDE U+FF5E becomes ``~``; the WAVE DASH U+301C has no compatibility mapping and
    stays as it is under every form.
    """
    if text.isascii() or unicodedata.is_normalized(form, text):
        return text
    return unicodedata.normalize(form, text)


def _apply(text: str, repairs: list[Mojibake]) -> str:
    parts, position = [], 0
    for found in repairs:
        parts.append(text[position : found.start])
        parts.append(found.repaired)
        position = found.end
    parts.append(text[position:])
    return "".join(parts)


def repair_spans(text: str, *, rounds: int = 3) -> str:
    """``text`` with every stretch :func:`find_mojibake` finds replaced by its repair, again
    on the result for mojibake of mojibake (at most ``rounds`` times). Pure Python."""
    for _ in range(rounds):
        found = find_mojibake(text)
        if not found:
            break
        text = _apply(text, found)
    return text


def repair(text: str) -> str:
    """``text`` with its mojibake repaired; genuine text comes back unchanged (the same object).

    With ftfy installed (the ``ftfy`` extra), two repairs compete: ``ftfy.fix_encoding``
    followed by :func:`repair_spans`, and :func:`repair_spans` followed by
    ``ftfy.fix_encoding``; the one that leaves less damage (ftfy's badness plus what
    :func:`find_mojibake` still finds), then the shorter one, wins. ftfy knows MacRoman, code
    page 437, CESU-8 emoji and lossy sequences; the spans fix what ftfy leaves (Latin text read
    as windows-1251, one garbled line among good ones, garbled text next to genuine text).
    Without ftfy only :func:`repair_spans` runs.

    Limits: without ftfy, only UTF-8 read as windows-1252, ISO-8859-1, windows-1251 or
    windows-1250 is repaired; characters lost to U+FFFD or ``?`` stay lost; a lone ambiguous
    stretch (``KESÄ`` + no-break space) is left alone unless clearer damage is near; text that
    the repairs explain only in part (a hopeless garble) is left alone; ftfy's ``fix_text``
    extras (straightening quotes, HTML entities, character width) are never applied.
    """
    if text.isascii():
        return text
    ftfy = _ftfy()
    if ftfy is None:
        fixed = repair_spans(text)
    else:
        fix_encoding, badness = ftfy
        candidates = [repair_spans(fix_encoding(text)), fix_encoding(repair_spans(text))]
        fixed = min(candidates, key=lambda c: (badness(c) + count_mojibake(c), len(c)))
    return text if fixed == text else fixed


_FTFY: Any = None


def _ftfy() -> tuple[Callable[[str], str], Callable[[str], int]] | None:
    """ftfy's ``fix_encoding`` and ``badness``, imported on first use (ftfy costs a noticeable
    import time), or None without the ``ftfy`` extra."""
    global _FTFY
    if _FTFY is None:
        try:
            from ftfy import fix_encoding
            from ftfy.badness import badness
        except ImportError:
            _FTFY = False
        else:
            _FTFY = (fix_encoding, badness)
    return _FTFY or None
