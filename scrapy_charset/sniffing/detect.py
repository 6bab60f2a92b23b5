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
    "gb18030": "gb18030",
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
# A run of text from a non-ASCII byte to the next "<" or ">". Matches start only at a byte
# >= 0x80 and stop at bytes below 0x40, so the scan is linear and never splits a character.
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff][^<>]*")


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


def fast_path(data: bytes) -> tuple[bool, Encoding | None]:
    """Settle what needs no statistics: ``(True, encoding)`` for UTF-8 and ISO-2022-JP,
    ``(True, None)`` for pure ASCII (nothing to detect), ``(False, None)`` otherwise."""
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
    """Up to ``limit`` bytes of the runs of text that hold non-ASCII bytes, joined by spaces:
    the part of a page that tells encodings apart, without the markup around it."""
    sample = bytearray()
    for run in _NON_ASCII_RUN.findall(data):
        sample += run
        sample += b" "
        if len(sample) >= limit:
            break
    return _cut_at_safe_byte(bytes(sample), limit)


class CharsetNormalizerDetector:
    """Detection by charset-normalizer, restricted to browser encodings."""

    # One Python codec per candidate Encoding Standard encoding.
    CANDIDATES: tuple[str, ...] = (
        "cp1252", "cp1250", "iso8859_2", "cp1251", "koi8_r", "iso8859_5", "cp866",
        "mac_cyrillic", "cp1253", "iso8859_7", "cp1254", "cp1255", "cp1256", "iso8859_6",
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
        results = charset_normalizer.from_bytes(sample, cp_isolation=list(self.CANDIDATES))
        for match in results:
            encoding = whatwg_encoding_for(match.encoding)
            if encoding is not None:
                return encoding
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
