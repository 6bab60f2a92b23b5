"""Statistical detection for undeclared legacy pages, limited to what a browser can produce.

A :class:`Detector` guesses an encoding from bytes. The default backend settles CJK text by
validity and typical characters, and single-byte text by the letter statistics of
:mod:`.letters` (charset-normalizer only arbitrates untypical CJK readings); chardetng (the
``chardetng`` extra) plugs in the same way, its answers checked by the same statistics. Both
are wrapped with the fast paths they lack: pure ASCII and valid UTF-8 are settled without
statistics, ISO-2022-JP by its escape sequences, and only a bounded sample of the page's text
is examined, so the cost does not grow with the size of the body. Answers are mapped to
Encoding Standard encodings; any other answer (cp775, johab, utf-7, …) is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .._regex import lazy_compile
from ..encoding import UTF_8, Encoding, get_encoding, lookup
from ..encoding.cjk import compiled
from ..encoding.fast import charmap_table, first_high_byte, is_ascii
from .tld import tld_default

if TYPE_CHECKING:
    from .letters import Ranking

# The letter statistics (.letters, the package's largest module) are imported by the functions
# below that use them, on first use: only undeclared pages of a single-byte encoding need them.

# How much of the body a detector looks at, and how much page text it is given.
PREFIX_BYTES = 64 * 1024
SAMPLE_BYTES = 2048

# Python codec names (as detectors answer) → Encoding Standard names. Names not here and not
# Encoding Standard labels are rejected.
_PYTHON_CODEC_TO_WHATWG: dict[str, str] = {
    "ascii": "windows-1252",
    "latin_1": "windows-1252",
    "iso8859_1": "windows-1252",
    "cp1252": "windows-1252",
    "iso8859_9": "windows-1254",
    "iso8859_11": "windows-874",
    "tis_620": "windows-874",
    "cp874": "windows-874",
    "mac_roman": "macintosh",
    "mac_cyrillic": "x-mac-cyrillic",
    "cp866": "IBM866",
    "gb2312": "GBK",
    "gbk": "GBK",
    # Chromium reports GBK for GB18030 text; the two decoders are the same.
    "gb18030": "GBK",
    "big5": "Big5",
    "big5hkscs": "Big5",
    "cp950": "Big5",
    "euc_jp": "EUC-JP",
    "euc_jis_2004": "EUC-JP",
    "euc_jisx0213": "EUC-JP",
    "shift_jis": "Shift_JIS",
    "cp932": "Shift_JIS",
    "shift_jis_2004": "Shift_JIS",
    "shift_jisx0213": "Shift_JIS",
    "euc_kr": "EUC-KR",
    "cp949": "EUC-KR",
    "iso2022_jp": "ISO-2022-JP",
    "utf_8": "UTF-8",
    "koi8_r": "KOI8-R",
    "koi8_u": "KOI8-U",
    **{f"cp125{digit}": f"windows-125{digit}" for digit in "012345678"},
    **{f"iso8859_{n}": f"ISO-8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)},
}

# ISO-2022-JP is 7-bit: its escape sequences (ESC $ @, ESC $ B, ESC ( J) mark it.
_ISO_2022_JP_ESCAPE = lazy_compile(rb"\x1b(?:\$[@B]|\(J)")
# A text node (between ">" and "<") holding a non-ASCII byte; group 1 is its ASCII start, up to
# its first non-ASCII byte. Matches start at ">" and stop at "<" or ">", bytes below 0x40 that
# are never part of a legacy multi-byte character, and the node is read once (the ASCII start
# cannot take the non-ASCII byte back), so the search is linear.
_TEXT_NODE = lazy_compile(rb">([^<>\x80-\xff]*)[\x80-\xff][^<>]*")
_HIGH_BYTE_VALUES = bytes(range(0x80, 0x100))
# How much of a sample is decoded first to rule out a multi-byte encoding.
_MULTI_BYTE_HEAD = 512
# Legacy multi-byte encodings: the Python codec that checks a sample's validity (a superset,
# so that vendor characters do not look like errors) and the one charset-normalizer is offered.
_MULTI_BYTE: dict[str, tuple[str, str]] = {
    "Shift_JIS": ("cp932", "cp932"),
    "EUC-JP": ("euc_jis_2004", "euc_jp"),
    "EUC-KR": ("cp949", "cp949"),
    "Big5": ("big5hkscs", "big5"),
    "GBK": ("gb18030", "gb18030"),
}
# Above this share of lone non-ASCII bytes, a sample is Latin-script text (in Cyrillic, Greek
# or CJK text most non-ASCII bytes stand next to others).
_LATIN_ISOLATED_SHARE = 0.5
_GREEK_SIBLINGS = ("windows-1253", "ISO-8859-7")
# The most frequent Han characters of Chinese text in simplified and traditional script (from
# published frequency lists); text misread in another CJK encoding hits few of them.
_SIMPLIFIED_COMMON = (
    "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下"
    "自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部"
    "其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又"
    "关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西月"
)
_TRADITIONAL_COMMON = (
    "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下"
    "自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部"
    "其些主樣理心她本前開但因只從想實日軍者意無力它與長把機十民第公此已工使情明性知全三又"
    "關點正業外將兩高間由問很最重並物手應戰向頭文體政美相見被利什二等產或新己製身果加西月"
)
# Chromium reads Greek text that both encodings read alike as ISO-8859-7 when short (a few
# hundred letters) and as windows-1253 when long (measured at 340 B and 5 KB pages): the
# non-ASCII bytes of the part of the page looked at are counted.
_GREEK_LONG_TEXT = 1024


@runtime_checkable
class Detector(Protocol):
    """Guesses the encoding of undeclared bytes; ``None`` when it has no opinion."""

    def detect(self, data: bytes, *, tld: str | None) -> Encoding | None: ...


def whatwg_encoding_for(name: str | None) -> Encoding | None:
    """The Encoding Standard encoding a detector's answer ``name`` stands for, if any."""
    if not name:
        return None
    key = name.strip().lower().replace("-", "_")
    mapped = _PYTHON_CODEC_TO_WHATWG.get(key)
    if mapped is not None:
        return get_encoding(mapped)
    encoding = lookup(name)
    # A label of UTF-16 or the replacement encoding is no answer for undeclared HTML.
    if encoding is not None and encoding.name in ("UTF-16LE", "UTF-16BE", "replacement"):
        return None
    return encoding


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` is valid UTF-8, allowing a sequence cut off at the very end."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        # A body cut mid-character (a bounded prefix) is still UTF-8.
        return error.start >= len(data) - 3 and error.reason == "unexpected end of data"
    return True


# UTF-8 text with a few invalid bytes (a character cut in two, a Latin-1 byte pasted in): at
# least this many valid non-ASCII characters per stretch of invalid bytes. Legacy text has far
# fewer (at most 2.2, on a short EUC-JP page; 1 and less on nearly all of the evaluation sets'
# 20,511 legacy pages), and is given up on after a few stretches.
_UTF8_CHARS_PER_STRETCH = 8
_UTF8_STRETCHES_BEFORE_RATIO = 2
# More invalid bytes than this are no "few" (binary data: bytes 0xFF).
_UTF8_MOST_INVALID = 256
# Legacy text is given up on in this many first bytes (its stretches come early).
_UTF8_HEAD = 1024
# Python's UTF-8 decoder with ``surrogateescape`` gives each invalid byte as U+DC80-U+DCFF.
_INVALID_RUN = lazy_compile("[\udc80-\udcff]+")


def _non_ascii(text: str) -> int:
    """How many characters of ``text`` are not ASCII (counted in C)."""
    return len(text) - len(text.encode("ascii", "ignore"))


def is_mostly_utf8(data: bytes, limit: int = PREFIX_BYTES) -> bool:
    """Whether the first ``limit`` bytes of ``data`` are UTF-8 text with a few invalid bytes:
    at least ``_UTF8_CHARS_PER_STRETCH`` valid non-ASCII characters per stretch of invalid
    bytes (invalid bytes with no valid character between them: a surrogate's three bytes are
    one stretch), counted from the start, and at most ``_UTF8_MOST_INVALID`` invalid bytes.
    Valid UTF-8 is checked first, with its text; this is for the rest. A sequence cut off at
    the end of the part looked at is no error. Counted in C (decodes and encodes); legacy text
    is given up on in its first kilobyte."""
    view = memoryview(data)[:limit]
    if _stretches(_escaped(view[:_UTF8_HEAD])[0]) is None:
        return False
    text, size = _escaped(view)
    # (Valid UTF-8 encodes back to the same bytes; each invalid byte is left out.)
    invalid = size - len(text.encode("utf-8", "ignore"))
    if not invalid or invalid > _UTF8_MOST_INVALID:
        return False
    if invalid == 1:
        stretches: int | None = 1
    else:
        stretches = _stretches(text)
    characters = _non_ascii(text) - invalid
    return stretches is not None and characters >= _UTF8_CHARS_PER_STRETCH * stretches


def _escaped(view: memoryview) -> tuple[str, int]:
    """``view`` decoded as UTF-8, each invalid byte as U+DC80-U+DCFF, a sequence cut off at
    its end left out; and how many bytes that is."""
    size = _without_cut_off_end(view)
    return str(view[:size], "utf-8", "surrogateescape"), size


def _stretches(text: str) -> int | None:
    """How many stretches of invalid bytes ``text`` (``_escaped``) has; ``None`` as soon as
    fewer than ``_UTF8_CHARS_PER_STRETCH`` valid non-ASCII characters per stretch precede one
    (from the third on: a start of the text says so too)."""
    characters = stretches = position = 0
    for run in _INVALID_RUN.finditer(text):
        characters += _non_ascii(text[position : run.start()])
        stretches += 1
        if (
            stretches > _UTF8_STRETCHES_BEFORE_RATIO
            and _UTF8_CHARS_PER_STRETCH * stretches > characters
        ):
            return None
        position = run.end()
    return stretches


def _without_cut_off_end(view: memoryview) -> int:
    """The length of ``view`` without a UTF-8 sequence cut off at its end (the start of a
    character, valid so far: not ``ED A0``, a surrogate's)."""
    for back in range(1, min(len(view), 3) + 1):
        if view[-back] < 0x80:
            break
        if view[-back] >= 0xC0:  # the last lead byte: a sequence cut off, or an invalid one
            try:
                str(view[-back:], "utf-8")
            except UnicodeDecodeError as error:
                if error.reason == "unexpected end of data" and error.start == 0:
                    return len(view) - back
            break
    return len(view)


# The fewest NUL high bytes (ASCII characters: markup, spaces) BOM-less UTF-16 must show.
_UTF16_MIN_NULS = 8


def utf16_without_bom(data: bytes) -> Encoding | None:
    """UTF-16LE or UTF-16BE when the start has NUL bytes at one parity only (the high bytes
    of markup, spaces and Latin text; legacy HTML has no NUL) and reads as UTF-16 text without
    errors or control codes; ``None`` otherwise. Text outside the Latin range (Cyrillic,
    Japanese) counts too: its markup and spaces still have NUL high bytes. A few stray NUL
    bytes in a short ASCII body (``<a href='\0'>``) are no UTF-16: at least _UTF16_MIN_NULS
    ASCII characters must show (Chromium never detects UTF-16: such a body stays ASCII)."""
    head = data[:1024]
    head = head[: len(head) & ~1]
    if len(head) < 16:
        return None
    even, odd = head[0::2], head[1::2]
    for zeros, others, name in ((odd, even, "UTF-16LE"), (even, odd, "UTF-16BE")):
        if (
            zeros.count(0) >= max(_UTF16_MIN_NULS, 0.1 * len(zeros))
            and others.count(0) <= 0.01 * len(others)
        ):
            if _reads_as_utf16(head, name):
                return get_encoding(name)
    return None


# Control codes other than tab, newline, form feed and carriage return: not in text.
_CONTROL_CODE = lazy_compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def _reads_as_utf16(head: bytes, name: str) -> bool:
    try:
        text = head.decode("utf-16-le" if name == "UTF-16LE" else "utf-16-be")
    except UnicodeDecodeError as error:
        # A surrogate pair cut off at the end of the head is still UTF-16.
        if error.start < len(head) - 2:
            return False
        text = head[: error.start].decode("utf-16-le" if name == "UTF-16LE" else "utf-16-be")
    return _CONTROL_CODE.search(text) is None


def fast_path(data: bytes) -> tuple[bool, Encoding | None]:
    """Settle what needs no statistics: ``(True, encoding)`` for UTF-8 (valid, or with a few
    invalid sequences: ``is_mostly_utf8``), BOM-less UTF-16 and ISO-2022-JP, ``(True, None)``
    for pure ASCII (nothing to detect), ``(False, None)`` otherwise."""
    if b"\x00" in data[:1024]:
        utf16 = utf16_without_bom(data)
        if utf16 is not None:
            return True, utf16
    if is_ascii(data):
        if b"\x1b" in data and _ISO_2022_JP_ESCAPE.search(data):
            return True, get_encoding("ISO-2022-JP")
        return True, None
    if is_utf8(data) or is_mostly_utf8(data):
        return True, UTF_8
    return False, None


def _cut_at_safe_byte(data: bytes, limit: int) -> bytes:
    # Bytes below 0x40 are never the trail byte of a legacy multi-byte character, so cutting
    # after one never splits a character.
    if len(data) <= limit:
        return data
    for cut in range(limit, max(limit - 64, 0), -1):
        if data[cut - 1] < 0x40:
            return data[:cut]
    return data[:limit]


def detection_window(data: bytes, size: int) -> bytes:
    """``size`` bytes from the start, or from shortly before the first non-ASCII byte when
    the start is all ASCII (found by a linear scan in C; measured: Chromium detects text that
    starts 70 KB into the page)."""
    window = _cut_at_safe_byte(bytes(data[: size + 64]), size)
    if window.isascii() and len(data) > len(window):
        first = first_high_byte(data, max(0, len(window) - 256))
        if first >= 0:
            tag_end = data.rfind(b">", max(0, first - 4096), first)
            start = tag_end + 1 if tag_end >= 0 else max(0, first - 128)
            window = _cut_at_safe_byte(bytes(data[start : start + size + 64]), size)
    return window


def _text_nodes(data: bytes, limit: int) -> bytes:
    """The text nodes holding non-ASCII bytes, each from up to 128 bytes before its first
    one, followed by a newline, until there are ``limit`` bytes (the reference for the
    compiled ``text_nodes``, which goes from one non-ASCII byte to the next)."""
    sample = bytearray()
    # (finditer: the nodes after the sample's end are never searched for.)
    for match in _TEXT_NODE.finditer(data):
        # Bytes before the first non-ASCII byte are ASCII, so starting among them is safe.
        sample += data[max(match.start(1), match.end(1) - 128) : match.end()]
        sample += b"\n"
        if len(sample) >= limit:
            break
    return bytes(sample)


# (The pattern crosses ASCII markup a byte at a time, some 5 ns a byte.)
text_nodes = _text_nodes if compiled is None else compiled.text_nodes


def _node_end(data: bytes, position: int) -> int:
    """Where the text node or tag holding ``position`` ends: the next "<" or ">" (or the end)."""
    end = data.find(b"<", position)
    if end < 0:
        end = len(data)
    closing = data.find(b">", position, end)
    return end if closing < 0 else closing


def _other_bytes(data: bytes, start: int, size: int) -> bytes:
    """Up to ``size`` bytes of ``data`` from ``start`` on that ``text_nodes`` does not take
    (all of whose nodes are taken): tags with their attribute values (`title`, `alt`),
    comments, script after a `<`, text before the first tag, and the ASCII start of a node
    beyond the 128 bytes taken with it. Found as ``text_nodes`` finds nodes, from one
    non-ASCII byte to the next."""
    out = bytearray()
    position = start  # the bytes before it are written or taken
    scan = 0  # the last node's or tag's end: "<", ">" or the end of data
    while len(out) < size:
        high = first_high_byte(data, max(scan, position))
        if high < 0:
            out += data[position : position + size - len(out)]
            break
        end = _node_end(data, high)
        opened = max(data.rfind(b"<", scan, high), data.rfind(b">", scan, high))
        if opened >= 0 and data[opened] == 0x3E:  # ">": a text node, taken from here on
            taken = max(opened + 1, high - 128)
            if taken > position:
                out += data[position : min(taken, position + size - len(out))]
            position = max(position, end)
        scan = end
        if end >= len(data):
            out += data[position : position + size - len(out)]
            break
    return bytes(out)


def raw_fill_sample(data: bytes, limit: int = SAMPLE_BYTES) -> bytes:
    """The sample the Chromium rules of :mod:`.unknown_labels` were measured on: the text
    nodes as ``text_sample`` takes them, filled up with the raw bytes from shortly before the
    first non-ASCII byte, which hold those nodes again (a short page's text twice, so that it
    weighs more the shorter the page: Chromium's detector shows short and long text in Mac
    and DOS code pages differently). Their count of implausible characters
    (``_MAC_EVIDENCE``) is in its units: ``text_sample`` agreed with Chromium on fewer pages
    at every threshold tried from 16 to 40. Detection uses ``text_sample``."""
    return _filled_sample(data, limit, lambda data, start, size: data[start : start + size])


def text_sample(data: bytes, limit: int = SAMPLE_BYTES) -> bytes:
    """Up to ``limit`` bytes of the text nodes that hold non-ASCII bytes, each from a little
    before its first non-ASCII byte, joined by newlines: the words that tell encodings apart,
    without the markup around them. When they are fewer than ``limit`` bytes, the page's
    other bytes from shortly before its first non-ASCII byte fill up the sample (attribute
    values and comments hold text too; plain text, with no such node, is sampled as is).
    Each byte of the page is in the sample once at most: letters and words are not counted
    twice."""
    return _filled_sample(data, limit, _other_bytes)


def _filled_sample(data: bytes, limit: int, fill: Callable[[bytes, int, int], bytes]) -> bytes:
    """The text nodes ``text_nodes`` takes, and when they are fewer than ``limit`` bytes (every
    such node is taken), ``fill(data, start, size)`` from shortly before the first non-ASCII
    byte; cut where no character is split."""
    sample = text_nodes(data, limit)
    if len(sample) < limit:
        first = first_high_byte(data, 0)
        if first >= 0:
            start = max(data.rfind(b">", 0, first) + 1, first - 128)
            sample += fill(data, start, limit - len(sample))
    return _cut_at_safe_byte(sample, limit)


def _decode(sample: bytes, name: str) -> str:
    return sample.decode(get_encoding(name).python_codec, errors="replace")


def plausible_multi_byte(sample: bytes, isolated_share: float | None = None) -> list[Encoding]:
    """The legacy multi-byte encodings that read ``sample`` with at most one malformed
    sequence per hundred non-ASCII characters; none for Latin-script text, whose non-ASCII
    bytes stand alone between ASCII ones."""
    if isolated_share is None:
        isolated_share = _isolated_share(sample)
    if isolated_share > _LATIN_ISOLATED_SHARE:
        return []
    return [get_encoding(name) for name in multi_byte_readings(sample)]


def multi_byte_readings(sample: bytes) -> dict[str, str]:
    """The texts of the legacy multi-byte readings of ``sample`` with at most one malformed
    sequence per hundred non-ASCII characters, by encoding name."""
    readings: dict[str, str] = {}
    head = _cut_at_safe_byte(sample, _MULTI_BYTE_HEAD)
    for name, (codec, _) in _MULTI_BYTE.items():
        # Text in another encoding is malformed every few characters: the head shows it.
        if _malformed(head.decode(codec, errors="replace")) * 20 > len(head):
            continue
        text = sample.decode(codec, errors="replace")
        if _malformed(text) * 100 <= len(text) - len(text.encode("ascii", "ignore")):
            readings[name] = text
    return readings


def _malformed(text: str) -> int:
    return text.count("\ufffd")


# The share of a language's letters that cjk_score counts in ordinary text: about half of
# Japanese is kana or common kanji, nearly all Korean is Hangul, and the common-character lists
# above cover about a third of Chinese text. Scores are divided by these to be comparable.
_JAPANESE_COMMON_KANJI = (
    "日本人年大中会社事時出行見月分国上生子間自者長手方前後東京円新高地内業場合同発金学部作"
    "市政代最問家性対度物気明的通主実全不定理目関電話"
)
_TYPICAL = {
    "Shift_JIS": "[\u3040-\u30ff" + _JAPANESE_COMMON_KANJI + "]",
    "EUC-JP": "[\u3040-\u30ff" + _JAPANESE_COMMON_KANJI + "]",
    "GBK": "[" + _SIMPLIFIED_COMMON + "]",
    "Big5": "[" + _TRADITIONAL_COMMON + "]",
}
# A reading scoring at least this (half the typical share) is taken as the page's language.
_TYPICAL_ENOUGH = 0.5
_TYPICAL_SHARE = {"Shift_JIS": 0.5, "EUC-JP": 0.5, "EUC-KR": 0.9, "GBK": 0.35, "Big5": 0.35}


_ASCII_RUN = lazy_compile("[\x00-\x7f]+")


def _count(pattern: re.Pattern[str], text: str) -> int:
    return len(pattern.findall(text))


_HANJA = "\u4e00-\u9fff\uf900-\ufaff"
# Runs of Hanja right after a Hangul syllable, in a word: Korean words put Hanja first
# (`國民은`, `依하여`, `大韓民國을`); Chinese read as EUC-KR mixes Hangul and Hanja at random.
_HANJA_AFTER_HANGUL = lazy_compile(f"(?<=[\uac00-\ud7a3])[{_HANJA}]+")


@cache
def _ks_x_1001_hangul() -> re.Pattern[str]:
    """The 2,350 Hangul syllables of KS X 1001 (bytes B0-C8 A1-FE in EUC-KR): nearly all of
    Korean text. The other 8,822 (UHC's extension) are rare in text, and they are how
    Shift_JIS kana and Big5 characters, or `’s` in windows-1252, read in UHC."""
    pairs = (bytes((lead, trail)) for lead in range(0xB0, 0xC9) for trail in range(0xA1, 0xFF))
    syllables = b"".join(pairs).decode("euc_kr")
    return re.compile(f"[{syllables}]")


def cjk_score(text: str, encoding_name: str) -> float:
    """How typical of its language ``text`` is when read in a CJK encoding: the share of its
    non-ASCII letters that are kana or common kanji (Japanese), common Hangul (Korean) or
    common Han characters (Chinese), relative to that share in ordinary text."""
    non_ascii = _ASCII_RUN.sub("", text)
    letters = sum(map(str.isalpha, non_ascii))
    if not letters:
        return 0.0
    if encoding_name == "EUC-KR":
        # Hangul of KS X 1001 is Korean; Hanja after Hangul in a word count against it
        # (spaces kept: `民은 己未` is two words), other Hanja neither way.
        typical = _count(_ks_x_1001_hangul(), non_ascii)
        typical -= sum(map(len, _HANJA_AFTER_HANGUL.findall(text)))
    else:
        # (re caches the compiled patterns: compiled on first use, not at import)
        typical = _count(re.compile(_TYPICAL[encoding_name]), non_ascii)
    return typical / letters / _TYPICAL_SHARE[encoding_name]


def best_cjk(
    sample: bytes, candidates: list[Encoding], readings: dict[str, str] | None = None
) -> Encoding | None:
    """The candidate whose reading of ``sample`` (from ``readings`` when given) is most
    typical of its language, if any reading is typical at all."""
    scores = {}
    for encoding in candidates:
        text = (readings or {}).get(encoding.name)
        if text is None:
            text = sample.decode(_MULTI_BYTE[encoding.name][0], errors="replace")
        scores[encoding.name] = cjk_score(text, encoding.name)
    best = max(scores, key=scores.__getitem__, default=None)
    return get_encoding(best) if best is not None and scores[best] >= _TYPICAL_ENOUGH else None


# Fewer non-ASCII bytes than this (a dozen or two CJK characters: a heading, a few words among
# ASCII) are too few for cjk_score to tell one CJK language from another: GBK's `总览` and
# `请向报告翻译错误` and Big5's `操縱登錄檔` read as valid EUC-KR Hangul that scores as more
# typical than their own characters (measured on translated manual pages).
_FEW_CJK_BYTES = 48
# A reading this typical of its language is that language whatever the TLD (measured on the
# 28 CJK pages of 16-48 non-ASCII bytes of the generated, gettext and manual page sets: true
# readings 0.29-1.85, 24 of them 0.8 or more; readings in another CJK encoding at most 0.63,
# and 0.67 on an 8-byte page).
_CLEARLY_TYPICAL = 0.8


def _tld_reads_few_cjk(sample: bytes, readings: dict[str, str], tld: str | None) -> bool:
    """Whether the TLD decides a ``sample`` of a few CJK characters: its locale encoding is a
    CJK one that reads the sample validly (one of ``readings``), and no other reading is
    clearly typical of its language. The TLD as a tie-breaker, where the statistics are too
    thin to decide."""
    local = tld_default(tld)
    if local is None or local.name not in readings or _high_bytes(sample) >= _FEW_CJK_BYTES:
        return False
    return not _another_is_typical(readings, (local.name,))


def _another_is_typical(readings: dict[str, str], own: tuple[str, ...], letters: int = 0) -> bool:
    """Whether one of ``readings`` but those ``own`` is clearly typical of its language, with
    at least ``letters`` different letters."""
    return any(
        cjk_score(text, name) >= _CLEARLY_TYPICAL and _cjk_letters(text) >= letters
        for name, text in readings.items()
        if name not in own
    )


# The CJK encodings of a TLD's locale encoding's language, and half-width katakana: Shift_JIS
# reads EUC-JP's byte pairs (`図` `「」`) as such single bytes (`ｿﾞ` `｡ﾖ`), which running text
# does not hold where a reading of full-width characters is at hand.
_CJK_FAMILIES = {
    "Shift_JIS": ("Shift_JIS", "EUC-JP"), "GBK": ("GBK",), "Big5": ("Big5",),
    "EUC-KR": ("EUC-KR",),
}  # fmt: skip
_HALFWIDTH_KANA = lazy_compile("[\uff61-\uff9f]")


def _tld_reading_of_a_few_symbols(
    readings: dict[str, str], tld: str | None, window: bytes
) -> str | None:
    """The encoding of a few non-ASCII bytes in runs (``readings``: their valid CJK readings)
    among ASCII words that are English or of no language, where the TLD's locale encoding is
    a CJK one and no other language's reading is clearly typical of it: its reading, or its
    language's other encoding's where that reads full-width characters and it half-width
    katakana; ``None`` where this does not apply. An arrow or a figure's `図` on an English page
    of a Chinese or Japanese site (GBK's `→`) is no letter of the language a single-byte
    reading makes of it (x-mac-cyrillic's `°ъ`): nothing on the page says that language."""
    family = [name for name in _CJK_FAMILIES.get(_tld_name(tld) or "", ()) if name in readings]
    if not family or _another_is_typical(readings, tuple(family), _TELLING_LETTERS):
        return None  # (Japanese kana are Japanese on .cn too; one Hangul syllable says little)
    from .letters import page_is_english, page_languages

    page = _words_around(window)
    if not page_is_english(page) and page_languages(page):
        return None
    full = [name for name in family if not _HALFWIDTH_KANA.search(readings[name])]
    return (full or family)[0]


# Fewer different CJK letters than this (EUC-KR's syllable `왼` for EUC-JP's `図`, its `맒쩌`
# twice for GBK's `附录` twice) are no reading clearly typical of its language, whatever their
# share.
_TELLING_LETTERS = 3


def _cjk_letters(text: str) -> int:
    """How many different non-ASCII letters ``text`` holds."""
    return len({char for char in _ASCII_RUN.sub("", text) if char.isalpha()})


def _tld_name(tld: str | None) -> str | None:
    local = tld_default(tld)
    return None if local is None else local.name


def _high_bytes(data: bytes) -> int:
    return len(data) - len(data.translate(None, _HIGH_BYTE_VALUES))


# Each byte to "H" (non-ASCII) or "a" (ASCII), for counting runs of non-ASCII bytes.
_HIGH_OR_ASCII = bytes(b"a" * 0x80 + b"H" * 0x80)


def _isolated_share(sample: bytes) -> float:
    """The share of non-ASCII bytes with ASCII on both sides: high in Latin-script text,
    low in CJK text, whose characters come in runs."""
    high = _high_bytes(sample)
    if not high:
        return 0.0
    # Runs of non-ASCII bytes ("aH", never overlapping) less those of two or more ("aHH").
    marks = b"a" + sample.translate(_HIGH_OR_ASCII) + b"a"
    return (marks.count(b"aH") - marks.count(b"aHH")) / high


# A single-byte reading scoring this much per non-ASCII byte is text of a language (measured:
# 0.75 and more for single-byte pages, at most 0.36 for CJK pages), and beats a CJK reading
# that is valid but untypical (Dutch `één` is two bytes of one Big5 character).
_LETTERS_PER_BYTE = 0.6
# Fewer non-ASCII bytes than this are too few for a CJK reading to be sure of its language.
_FEW_BYTES = 16


def _reads_as_letters(sample: bytes, ranked: Ranking) -> bool:
    """Whether the best single-byte reading of ``sample`` (``ranked``) is text: it scores as
    letters on the bytes it does not read as punctuation (`’s één ’s` is two letters and two
    apostrophes)."""
    from .letters import sign_bytes

    signs = sign_bytes(ranked.best[0]) if ranked.best else b""
    letters = _high_bytes(sample.translate(None, signs))
    return ranked.score >= _LETTERS_PER_BYTE * letters


# A sample with at least this many non-ASCII bytes whose best reading still scores below zero
# is text of no language in any encoding of the standard (a lone `µ` or `½` is not). (It was
# 8 when a page with few non-ASCII bytes had them twice in its sample: the same four.)
_NO_LANGUAGE_BYTES = 4


def _is_no_language(sample: bytes, top: float) -> bool:
    """Whether the best reading of ``sample``, scoring ``top``, is text of no language."""
    return top < 0 and _high_bytes(sample) >= _NO_LANGUAGE_BYTES


# C0 control codes but tab, newline, form feed and carriage return (and ESC, which ISO-2022
# text has): in binary data, not in text.
_CONTROL_CODES = bytes([*range(0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])


def _has_control_codes(data: bytes) -> bool:
    return len(data.translate(None, _CONTROL_CODES)) != len(data)


# How many places in the rest of the page the tied readings are compared on, at most.
_WINDOW_PLACES = 64


@cache
def _differing_bytes(names: tuple[str, ...]) -> re.Pattern[bytes] | None:
    """A pattern finding a byte the encodings ``names`` read as different characters;
    ``None`` when they read every byte alike."""
    tables = [charmap_table(name) for name in names]
    differing = bytes(b for b in range(0x80, 0x100) if len({t[b] for t in tables}) > 1)
    if not differing:
        return None
    return re.compile(b"[" + b"".join(b"\\x%02x" % b for b in differing) + b"]")


def _text_around(data: bytes, position: int, reach: int = 32) -> bytes:
    """Up to ``reach`` bytes either side of ``position``, within its text node, without the
    words cut at either end (a word's last letter cut off its start reads as a letter
    standing alone)."""
    start = max(0, position - reach)
    node_start = data.rfind(b">", start, position) + 1
    if node_start > 0:
        start = node_start
    elif start > 0:
        space = data.find(b" ", start, position)
        start = space + 1 if space >= 0 else start
    end = data.find(b"<", position, position + reach + 1)
    if end < 0:
        end = position + reach + 1
        space = data.rfind(b" ", position + 1, end)
        end = space if space >= 0 else end
    return data[start:end]


def _rerank_on_window(sample: bytes, tied: list[str], window: bytes) -> list[str]:
    """The ``tied`` readings of ``sample`` that stay best when the places in ``window`` (the
    part of the page looked at) where they read differently are scored too: a Hungarian
    page's `«` (windows-1250; `Ť` in ISO-8859-2) may come after the sample's 2 KB."""
    from .letters import best_readings

    pattern = _differing_bytes(tuple(tied))
    if pattern is None:
        return tied
    places = [
        _text_around(window, m.start()) for m in islice(pattern.finditer(window), _WINDOW_PLACES)
    ]
    if not places:
        return tied
    return best_readings(sample + b"\n" + neutral_signs(b"\n".join(places)), tuple(tied))


# How far either side of the first non-ASCII byte the page's words are counted.
_WORDS_REACH = 1024


def _words_around(window: bytes) -> bytes:
    """The part of ``window`` (the part of the page looked at) whose words say the page's
    language: up to ``_WORDS_REACH`` bytes either side of its first non-ASCII byte, the whole
    of a short page. (Not the sample: it holds the text nodes with non-ASCII bytes first, not
    the ASCII words around them.)"""
    first = first_high_byte(window, 0)
    return window[max(0, first - _WORDS_REACH) : max(0, first) + _WORDS_REACH]


def _has_c1(data: bytes) -> bool:
    """Whether ``data`` holds a byte 0x80-0x9F (a C1 control code in every ISO-8859 encoding)."""
    from .letters import C1_BYTES

    return len(data.translate(None, C1_BYTES)) != len(data)


# Bytes 0x91-0x94 are the quotes `‘ ’ “ ”` in every windows-125x encoding, the encodings
# served most. `’` next to a Latin letter is the apostrophe (`don’t`, `students’`, `l’été`,
# Afrikaans `’n`) or a closing quote, `‘` and `“` before a word's first letter opening ones,
# `”` after its last a closing one. Read as letters there (macintosh `ë í ì î`: `donít`,
# `ìfineî`) they are no evidence of a language: a page of English with four apostrophes read
# as Spanish, Basque and Afrikaans in quotes as macintosh. Measured with Chromium 156 on
# English, French, Italian, Catalan, Dutch and Afrikaans windows-1252 pages whose only other
# bytes are ASCII: windows-1252 (or windows-1250, the same text), never macintosh. (0x91 and
# 0x93 inside a word are left alone: `æ` `ô` in DOS text, which Chromium shows as macintosh.)
_SIGN_BY_LETTER = lazy_compile(
    rb"(?<=[A-Za-z])\x92|\x92(?=[A-Za-z])"
    rb"|(?<![A-Za-z\x80-\xff])[\x91\x93](?=[A-Za-z])|(?<=[A-Za-z])\x94(?![A-Za-z\x80-\xff])"
    # and the micro sign as a unit's prefix (see _readings_without_micro_sign)
    rb"|(?<=[0-9])\xb5(?=[A-Za-z])|(?<=[0-9] )\xb5(?=[A-Za-z])"
)
# 0xB4 is the spacing acute accent `´` in windows-1250, -1252, -1254 to -1258 and ISO-8859-1 to
# -4, -8 and -9, typed for an apostrophe where a keyboard's acute key is at hand (Dutch
# `programma´s`, English `it´s`, `don´t`, French `l´été`, Italian `all´ufficio`): where it
# stands as an English or Dutch `'s`, `'t`, `'ll`..., or after a French or Italian elided word
# before a vowel, it is made neutral like `’`, and is no evidence for the readings that make
# it a letter (ISO-8859-10 `ī`: `programmaīs`, `līuomo` read as Latvian; ISO-8859-15 and -16
# `Ž`). Inside other words it is left alone: Latvian ISO-8859-10 `Rīga`, `līdz`.
_ACUTE_APOSTROPHE = lazy_compile(
    rb"(?<=[A-Za-z])\xb4(?=(?:s|t|d|m|ll|re|ve)(?![A-Za-z\x80-\xff]))"
    rb"|(?<![A-Za-z\x80-\xff])((?i:[cdjlmnstv]|qu|jusqu|lorsqu|puisqu|all|dall|dell|nell|sull"
    rb"|coll|un|quest|quell|tutt))\xb4(?=[aeiouhAEIOUH\x80-\xff])"
)

# Bytes 0xAB and 0xBB are the guillemets `« »` in windows-125x, ISO-8859-1, -7, -13, -15 and
# -16, and letters in ISO-8859-2 (`Ť ť`), -3 (`Ğ ğ`), -4 (`Ģ ģ`) and -10: a pair of them around
# words or signs (`«Desa»`, `« Ouvrir »`, German `»Öffnen«`, `«_»`; the opening one not after
# a letter, the closing one not before one, within a line) is a pair of quotes, and no evidence
# of a language: Catalan or French text with a few quoted words read as Czech or Esperanto. (A
# Slovak ISO-8859-2 `Ťava ... radosť` matches too; its other letters decide.)
_GUILLEMETS = lazy_compile(
    rb"(?<![A-Za-z\x80-\xff])(\xab|\xbb)"
    rb"([ \xa0]?[^\s<>\xab\xbb](?:[^<>\n\xab\xbb]{0,80}?[^\s<>\xab\xbb])?[ \xa0]?)"
    rb"(?!\1)[\xab\xbb](?![A-Za-z\x80-\xff])"
)

_SIGNS = (b"\x91", b"\x92", b"\x93", b"\x94", b"\xb5")


def neutral_signs(data: bytes) -> bytes:
    """``data`` with each byte 0x91-0x94 that stands as a quote by an ASCII letter, each
    micro sign before a unit (see ``_SIGN_BY_LETTER``) and each acute accent typed for an
    apostrophe (``_ACUTE_APOSTROPHE``) replaced by an ASCII `'`, and
    each pair of guillemets around words (``_GUILLEMETS``) by ASCII `"`: the same in every
    reading."""
    if b"\xab" in data or b"\xbb" in data:
        data = _GUILLEMETS.sub(rb'"\2"', data)
    if b"\xb4" in data:
        data = _ACUTE_APOSTROPHE.sub(lambda match: (match[1] or b"") + b"'", data)
    if all(sign not in data for sign in _SIGNS):
        return data
    return _SIGN_BY_LETTER.sub(b"'", data)


# 0xB5 after a number and before a unit's letters (`5 µm`, `20µg`; made neutral by
# neutral_signs) is the micro sign, which windows-125x and most ISO-8859 encodings have there:
# the readings without it (ISO-8859-2 `ľ`, ISO-8859-16 `”`, ...) are ruled out, like the
# ISO-8859 readings by a C1 byte.
@cache
def _readings_without_micro_sign() -> frozenset[str]:
    from .letters import CANDIDATES

    return frozenset(name for name in CANDIDATES if charmap_table(name)[0xB5] != "µ")


# Guillemets around words (see _GUILLEMETS) prefer, among readings otherwise alike, those that
# read them as guillemets: Slovene windows-1250 `»data«` is not ISO-8859-2's `ťdataŤ`, though
# .si's usual encoding is ISO-8859-2 and the letters read alike.
@cache
def _readings_without_guillemets() -> frozenset[str]:
    from .letters import CANDIDATES

    return frozenset(
        name for name in CANDIDATES if charmap_table(name)[0xAB] + charmap_table(name)[0xBB] != "«»"
    )


def _quotes_with_guillemets(data: bytes) -> bool:
    """Whether ``data`` holds a pair of guillemets around words (``_GUILLEMETS``)."""
    return (b"\xab" in data or b"\xbb" in data) and _GUILLEMETS.search(data) is not None


def choose_single_byte(
    sample: bytes,
    tld: str | None,
    candidates: tuple[str, ...] | None = None,
    preferred: Encoding | None = None,
    window: bytes = b"",
    ranked: Ranking | None = None,
) -> Encoding | None:
    """The single-byte encoding that reads ``sample`` best (see :mod:`.letters`); ``None``
    when the TLD's locale encoding is another of the best readings, so that the TLD decides.

    The TLD only breaks ties. Among equal readings without it, ``preferred`` (another
    detector's answer) wins; then Greek follows Chromium (both encodings read alike:
    ISO-8859-7 when short, windows-1253 when long); otherwise the first in ``candidates``.
    Bytes 0x80-0x9F anywhere in ``window`` (the part of the page looked at) rule out the
    ISO-8859 encodings even when the sample has none. ``ranked`` is ``ranked_readings`` of
    the sample over all candidates, when already known. ``candidates`` defaults to all of
    them (``letters.CANDIDATES``).
    """
    from .letters import (
        CANDIDATES,
        ISO_8859,
        TLD_LANGUAGES,
        prefer_clear_page_language,
        prefer_language,
        prefer_page_language,
        prefer_page_words,
        prefer_signs_in_english,
        prefer_words,
        ranked_readings,
        readings_below_zero,
    )

    if candidates is None:
        candidates = CANDIDATES
    high = _high_bytes(sample)
    ruled_out: frozenset[str] = frozenset()
    if high < _FEW_BYTES or _isolated_share(sample) > _LATIN_ISOLATED_SHARE:
        # Latin-script text: its quotes and micro signs are read as such (neutral_signs).
        neutral = neutral_signs(sample)
        if neutral != sample:
            if neutral.count(b"\xb5") < sample.count(b"\xb5"):
                ruled_out = _readings_without_micro_sign()
            sample, ranked = neutral, None
    if _has_c1(window):
        # Bytes 0x80-0x9F on the page: no ISO-8859 reading (a ranking without them is the
        # same but where one of them is among the best or near them).
        ruled_out |= ISO_8859
        if ranked is not None and not ISO_8859.isdisjoint(ranked.best + ranked.near):
            ranked = None
    if ranked is None or candidates != CANDIDATES:
        if _high_bytes(sample) >= _NO_LANGUAGE_BYTES and _has_control_codes(sample):
            # Binary data (a mislabelled image or PDF: control codes no text has) that every
            # reading scores below zero: text of no language, as found below once ranked
            # (no ISO-8859 reading is among them for bytes 0x80-0x9F to rule out), without
            # ranking the readings (some 200 us).
            pool = readings_below_zero(sample, candidates, ruled_out)
            if pool is not None and ISO_8859.isdisjoint(pool):
                return None
        ranked = ranked_readings(sample, candidates, ruled_out)
    if _is_no_language(sample, ranked.score):
        # Text in an encoding no browser has (DOS or Mac code pages): no reading is right;
        # like Chromium, the TLD's default or windows-1252.
        return None
    tied = list(ranked.best)
    # (Only when the page looked at holds non-ASCII bytes the sample does not: the places
    # around the sample's own bytes would count its letters again, up to once per byte near
    # them, while the prior counts once, and tip a tie the sample's evidence left even.)
    if len(tied) > 1 and _high_bytes(window) > high:
        tied = _rerank_on_window(sample, tied, window)
    if len(tied) > 1 and _quotes_with_guillemets(window or sample):
        # Readings alike but for guillemets around words (made neutral): those that have them.
        tied = [name for name in tied if name not in _readings_without_guillemets()] or tied
    # A few non-ASCII bytes whose best readings are letters of another language than the
    # page's words: the readings that give that language's letters or signs.
    page = _words_around(window or sample)
    tied = prefer_signs_in_english(sample, tied, candidates, page)
    by_words = prefer_page_language(sample, tied, candidates, page, ruled_out)
    # Readings as good as each other, or nearly (as good on letters, different languages):
    # those whose words are clearly of the language their letters say, then those that read
    # as the language of the page's words, then as the TLD's language.
    tied = by_words if by_words != tied else prefer_words(sample, tied, ranked.near)
    tied = prefer_clear_page_language(sample, tied, ranked.score, candidates, page, ruled_out)
    tied = prefer_page_words(sample, tied, page)
    tied = prefer_language(sample, tied, TLD_LANGUAGES.get(tld or ""))
    if preferred is not None and preferred.name in tied:
        choice = preferred
    elif all(name in tied for name in _GREEK_SIBLINGS):
        long = _high_bytes(window or sample) >= _GREEK_LONG_TEXT
        choice = get_encoding("windows-1253" if long else "ISO-8859-7")
    else:
        choice = get_encoding(tied[0])
    local = tld_default(tld)
    # Measured: Chromium never steers towards windows-1258 (French text on .vn).
    if local is not None and local != choice and local.name in tied:
        if local.name != "windows-1258":
            return None
    return choice


def refine_guess(
    encoding: Encoding, sample: bytes, tld: str | None = None, window: bytes = b""
) -> Encoding | None:
    """Check another detector's single-byte answer against the letter statistics: kept when
    it is among the best readings (unless the TLD breaks the tie), else replaced by the best
    (``None``: the TLD decides)."""
    from .letters import CANDIDATES

    if encoding.name not in CANDIDATES:
        return encoding
    return choose_single_byte(sample, tld, preferred=encoding, window=window)


class CharsetNormalizerDetector:
    """Detection by charset-normalizer, restricted to browser encodings and refined where it
    confuses siblings."""

    # One Python codec per candidate Encoding Standard encoding.
    SINGLE_BYTE: tuple[str, ...] = (
        "cp1252", "cp1250", "iso8859_2", "cp1251", "koi8_r", "koi8_u", "iso8859_5", "cp866",
        "mac_cyrillic", "cp1253", "iso8859_7", "cp1254", "cp1255", "cp1256", "iso8859_6",
        "cp1257", "cp874",
    )  # fmt: skip

    def __init__(self, sample_bytes: int = SAMPLE_BYTES, prefix_bytes: int = PREFIX_BYTES):
        self.sample_bytes = sample_bytes
        self.prefix_bytes = prefix_bytes

    def detect(self, data: bytes, *, tld: str | None = None) -> Encoding | None:
        prefix = detection_window(data, self.prefix_bytes)
        settled, quick = fast_path(prefix)
        if settled:
            return quick
        from .letters import CANDIDATES, LATIN_CANDIDATES, new_sample, ranked_readings

        new_sample()
        sample = text_sample(prefix, self.sample_bytes)
        if sample.isascii():
            return None
        if 2 * _high_bytes(sample) > len(sample):
            # Text of a non-Latin script: half the sample holds hundreds of its letters.
            sample = _cut_at_safe_byte(sample, self.sample_bytes // 2)
        if _isolated_share(sample) > _LATIN_ISOLATED_SHARE:
            # Lone non-ASCII bytes between ASCII letters: Latin-script text.
            return choose_single_byte(sample, tld, LATIN_CANDIDATES, window=prefix)
        # A CJK reading that is valid and typical of its language settles it, unless the
        # sample has a few non-ASCII bytes only and they read as letters in a single-byte
        # encoding (Dutch `één ’` is two Hangul syllables in EUC-KR).
        ranked: Ranking | None = None
        readings: dict[str, str] | None = None
        if _high_bytes(sample) < _FEW_BYTES:
            if _tld_name(tld) in _CJK_FAMILIES:
                readings = multi_byte_readings(sample)
                symbols = _tld_reading_of_a_few_symbols(readings, tld, prefix)
                if symbols is not None:  # the TLD decides (or its language's other encoding)
                    return None if symbols == _tld_name(tld) else get_encoding(symbols)
            ranked = ranked_readings(sample)
            if _reads_as_letters(sample, ranked):
                return choose_single_byte(sample, tld, window=prefix, ranked=ranked)
        if readings is None:
            readings = multi_byte_readings(sample)
        multi_byte = [get_encoding(name) for name in readings]
        if _tld_reads_few_cjk(sample, readings, tld):
            return None  # the TLD decides
        cjk = best_cjk(sample, multi_byte, readings)
        if cjk is not None:
            return cjk
        if not multi_byte:
            return choose_single_byte(sample, tld, window=prefix, ranked=ranked)
        ranked = ranked or ranked_readings(sample)
        if _reads_as_letters(sample, ranked):
            return choose_single_byte(sample, tld, window=prefix, ranked=ranked)
        # No single-byte reading is text (Johab read in any of them): the valid CJK
        # reading most typical of its language, as Chromium reads it.
        if _is_no_language(sample, ranked.score):
            return max(multi_byte, key=lambda e: cjk_score(readings[e.name], e.name))
        # Less typical CJK readings compete with the single-byte encodings in
        # charset-normalizer's statistics.
        import charset_normalizer

        candidates = [*self.SINGLE_BYTE, *(_MULTI_BYTE[e.name][1] for e in multi_byte)]
        for match in charset_normalizer.from_bytes(sample, cp_isolation=candidates):
            encoding = whatwg_encoding_for(match.encoding)
            if encoding is not None and encoding.name not in CANDIDATES:
                return encoding
            if encoding is not None:
                break
        # A single-byte answer: the letters choose among the single-byte readings.
        return choose_single_byte(sample, tld, window=prefix)


class ChardetngDetector:
    """Detection by chardetng (Firefox's detector), via the ``chardetng-py`` package."""

    def __init__(self, prefix_bytes: int = PREFIX_BYTES):
        self.prefix_bytes = prefix_bytes
        import chardetng_py  # noqa: F401  (fail at construction when the extra is missing)

    def detect(self, data: bytes, *, tld: str | None = None) -> Encoding | None:
        import chardetng_py

        prefix = detection_window(data, self.prefix_bytes)
        settled, quick = fast_path(prefix)
        if settled:
            return quick
        hint = tld.encode("ascii") if tld and tld.isascii() and "." not in tld else None
        try:
            name = chardetng_py.detect(prefix, allow_utf8=False, tld=hint)
        except Exception:  # a hint the library refuses: detect without it
            name = chardetng_py.detect(prefix, allow_utf8=False)
        encoding = whatwg_encoding_for(name)
        if encoding is None:
            return None
        # The same sibling refinements as for charset-normalizer's answers.
        return refine_guess(encoding, text_sample(prefix), tld, prefix)


DEFAULT_DETECTOR: Detector = CharsetNormalizerDetector()
