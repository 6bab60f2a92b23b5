"""Statistical detection for undeclared legacy pages, limited to what a browser can produce.

A :class:`Detector` guesses an encoding from bytes. The default backend is charset-normalizer;
chardetng (the ``chardetng`` extra) plugs in the same way. Both are wrapped with the fast paths
they lack: pure ASCII and valid UTF-8 are settled without statistics, ISO-2022-JP by its
escape sequences, and only a bounded sample of the page's text is examined, so the cost does
not grow with the size of the body. Answers are mapped to Encoding Standard encodings; any
other answer (cp775, johab, utf-7, …) is rejected.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from ..encoding import UTF_8, Encoding, get_encoding, lookup
from .tld import tld_default

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
_ISO_2022_JP_ESCAPE = re.compile(rb"\x1b(?:\$[@B]|\(J)")
# A text node (between ">" and "<") holding a non-ASCII byte. Matches start at ">" and stop at
# "<" or ">", bytes below 0x40 that are never part of a legacy multi-byte character, and each
# node is scanned a bounded number of times, so the search is linear.
_TEXT_NODE = re.compile(rb">([^<>]*[\x80-\xff][^<>]*)")
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_FIRST_NON_ASCII = re.compile(rb"[\x80-\xff]")
# Legacy multi-byte encodings, tried for strict validity when statistics give no answer.
_MULTI_BYTE = (
    ("cp932", "Shift_JIS"),
    ("euc_jp", "EUC-JP"),
    ("cp949", "EUC-KR"),
    ("big5", "Big5"),
    ("gbk", "GBK"),
)
_MULTI_BYTE_CODECS = frozenset(("gb18030", "big5", "euc_jp", "cp932", "cp949"))
# Latin-script single-byte encodings, and the ISO sibling a windows-125x guess is confused with
# when a text has no byte in 0x80-0x9F (control codes in ISO 8859, letters in windows-125x).
_LATIN = frozenset(("windows-1252", "windows-1250", "ISO-8859-2", "windows-1254", "windows-1257"))
_ISO_SIBLINGS = {
    "windows-1250": "ISO-8859-2",
    "windows-1257": "ISO-8859-2",
    "windows-1251": "ISO-8859-5",
}
_C1_BYTES = re.compile(rb"[\x80-\x9f]")
_GREEK_SIBLINGS = ("windows-1253", "ISO-8859-7")


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


def utf16_without_bom(data: bytes) -> Encoding | None:
    """UTF-16LE or UTF-16BE when nearly every other byte of the start is NUL (text in the
    Latin range without a BOM); ``None`` otherwise."""
    head = data[:1024]
    if len(head) < 16:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) >= 0.9 * len(odd) and even.count(0) <= 0.1 * len(even):
        return get_encoding("UTF-16LE")
    if even.count(0) >= 0.9 * len(even) and odd.count(0) <= 0.1 * len(odd):
        return get_encoding("UTF-16BE")
    return None


def fast_path(data: bytes) -> tuple[bool, Encoding | None]:
    """Settle what needs no statistics: ``(True, encoding)`` for UTF-8, BOM-less UTF-16 and
    ISO-2022-JP, ``(True, None)`` for pure ASCII (nothing to detect), ``(False, None)``
    otherwise."""
    if b"\x00" in data[:1024]:
        utf16 = utf16_without_bom(data)
        if utf16 is not None:
            return True, utf16
    if data.isascii():
        if b"\x1b" in data and _ISO_2022_JP_ESCAPE.search(data):
            return True, get_encoding("ISO-2022-JP")
        return True, None
    if is_utf8(data):
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


def text_sample(data: bytes, limit: int = SAMPLE_BYTES) -> bytes:
    """Up to ``limit`` bytes of the text nodes that hold non-ASCII bytes, joined by newlines:
    the words that tell encodings apart, without the markup around them. Plain text (no
    such node) is sampled as is."""
    sample = bytearray()
    for node in _TEXT_NODE.findall(data):
        sample += node
        sample += b"\n"
        if len(sample) >= limit:
            break
    if len(sample) < limit:
        # Too little text: fill up with the raw bytes from the first non-ASCII one.
        first = _FIRST_NON_ASCII.search(data)
        if first is not None:
            start = data.rfind(b">", 0, first.start()) + 1
            sample += data[start : start + limit - len(sample)]
    return _cut_at_safe_byte(bytes(sample), limit)


def strictly_valid_multi_byte(sample: bytes) -> list[Encoding]:
    """The legacy multi-byte encodings in which ``sample`` has (almost) no malformed sequence:
    at most one per hundred non-ASCII characters, for vendor extensions."""
    errors: dict[str, int] = {}
    for codec, name in _MULTI_BYTE:
        text = sample.decode(codec, errors="replace")
        count = text.count("\ufffd")
        if count * 100 <= sum(1 for char in text if not char.isascii()):
            errors[name] = count
    fewest = min(errors.values(), default=0)
    return [get_encoding(name) for name, count in errors.items() if count == fewest]


def _decode(sample: bytes, name: str) -> str:
    return sample.decode(get_encoding(name).python_codec, errors="replace")


def refine_guess(encoding: Encoding, sample: bytes, tld: str | None = None) -> Encoding:
    """Settle the confusions statistics leave between sibling encodings.

    Greek: ISO-8859-7 unless windows-1253 reads more letters (Chromium reports ISO-8859-7 for
    short Greek pages). Latin: windows-1252 when it reads the text identically; an ISO 8859
    sibling when it reads more letters and no byte is in 0x80-0x9F; the TLD's locale encoding
    when it reads as many letters (measured in Chromium: French text is ISO-8859-2 on .pl).
    """
    if encoding.name in _GREEK_SIBLINGS:
        windows, iso = (_letters(_decode(sample, name)) for name in _GREEK_SIBLINGS)
        return get_encoding("windows-1253" if windows > iso else "ISO-8859-7")
    text = _decode(sample, encoding.name)
    if encoding.name in _LATIN and text == _decode(sample, "windows-1252"):
        encoding = get_encoding("windows-1252")
    sibling = _ISO_SIBLINGS.get(encoding.name)
    if sibling is not None and not _C1_BYTES.search(sample):
        if _letters(_decode(sample, sibling)) > _letters(text):
            encoding = get_encoding(sibling)
            text = _decode(sample, sibling)
    local = tld_default(tld)
    if (
        local is not None
        and local != encoding
        and local.name in _LATIN
        and encoding.name in _LATIN
        and _letters(_decode(sample, local.name)) >= _letters(text)
    ):
        return local
    return encoding


def _letters(text: str) -> int:
    return sum(1 for char in text if char.isalpha() and not char.isascii())


def _isolated_share(sample: bytes) -> float:
    """The share of non-ASCII bytes with ASCII on both sides: high in Latin-script text,
    low in CJK text, whose characters come in runs."""
    high = isolated = 0
    for match in _HIGH_RUN.finditer(sample):
        high += match.end() - match.start()
        if match.end() - match.start() == 1:
            isolated += 1
    return isolated / high if high else 0.0


class CharsetNormalizerDetector:
    """Detection by charset-normalizer, restricted to browser encodings."""

    # One Python codec per candidate Encoding Standard encoding.
    CANDIDATES: tuple[str, ...] = (
        "cp1252", "cp1250", "iso8859_2", "cp1251", "koi8_r", "iso8859_5", "cp866",
        "mac_cyrillic", "koi8_u", "cp1253", "iso8859_7", "cp1254", "cp1255", "cp1256", "iso8859_6",
        "cp1257", "cp874", "gb18030", "big5", "euc_jp", "cp932", "cp949",
    )  # fmt: skip

    def __init__(self, sample_bytes: int = SAMPLE_BYTES, prefix_bytes: int = PREFIX_BYTES):
        self.sample_bytes = sample_bytes
        self.prefix_bytes = prefix_bytes

    def detect(self, data: bytes, *, tld: str | None = None) -> Encoding | None:
        prefix = _cut_at_safe_byte(bytes(data[: self.prefix_bytes + 64]), self.prefix_bytes)
        settled, quick = fast_path(prefix)
        if settled:
            return quick
        import charset_normalizer

        sample = text_sample(prefix, self.sample_bytes)
        candidates = list(self.CANDIDATES)
        if _isolated_share(sample) > 0.5:
            # Lone non-ASCII bytes between ASCII ones: Latin-script text, not CJK.
            candidates = [c for c in candidates if c not in _MULTI_BYTE_CODECS]
        results = charset_normalizer.from_bytes(sample, cp_isolation=candidates)
        for match in results:
            encoding = whatwg_encoding_for(match.encoding)
            if encoding is not None:
                return refine_guess(encoding, sample, tld)
        if len(candidates) < len(self.CANDIDATES):
            return refine_guess(get_encoding("windows-1252"), sample, tld)
        # charset-normalizer finds symbol-rich CJK text too chaotic and answers nothing;
        # strict validity then still tells most legacy multi-byte encodings apart.
        valid = strictly_valid_multi_byte(sample)
        if len(valid) == 1:
            return valid[0]
        if valid:
            results = charset_normalizer.from_bytes(
                sample,
                cp_isolation=[codec for codec, name in _MULTI_BYTE if get_encoding(name) in valid],
                threshold=1.0,
            )
            best = results.best()
            mapped = whatwg_encoding_for(best.encoding) if best is not None else None
            return mapped or valid[0]
        return None


class ChardetngDetector:
    """Detection by chardetng (Firefox's detector), via the ``chardetng-py`` package."""

    def __init__(self, prefix_bytes: int = PREFIX_BYTES):
        self.prefix_bytes = prefix_bytes
        import chardetng_py  # noqa: F401  (fail at construction when the extra is missing)

    def detect(self, data: bytes, *, tld: str | None = None) -> Encoding | None:
        import chardetng_py

        prefix = _cut_at_safe_byte(bytes(data[: self.prefix_bytes + 64]), self.prefix_bytes)
        settled, quick = fast_path(prefix)
        if settled:
            return quick
        hint = tld.encode("ascii") if tld and tld.isascii() and "." not in tld else None
        try:
            name = chardetng_py.detect(prefix, allow_utf8=False, tld=hint)
        except Exception:  # a hint the library refuses: detect without it
            name = chardetng_py.detect(prefix, allow_utf8=False)
        return whatwg_encoding_for(name)


DEFAULT_DETECTOR: Detector = CharsetNormalizerDetector()
