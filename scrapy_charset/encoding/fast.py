"""Fast decoders built on CPython's C codecs, each proven identical to :mod:`.reference`.

- Single-byte encodings and x-user-defined: a 256-character table made from the index (U+FFFD
  where the index has no code point), applied by ``_speedups.decode_single_byte`` or, without
  the compiled module, ``codecs.charmap_decode``.
- UTF-8 and UTF-16BE/LE: Python's codecs with ``errors="replace"``; CPython replaces maximal
  subparts, which is the spec's error recovery (tests/encoding sweep every short sequence).
- The CJK encodings: see :mod:`.cjk`.

Streaming (``StreamDecoder``) holds back the bytes after the last point where the spec's
decoder is known to be in its initial state, so chunked output equals one-shot output.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from functools import cache
from operator import methodcaller
from typing import Protocol

from .._regex import lazy_compile
from . import cjk
from .cjk import compiled
from .labels import Encoding
from .tables.single_byte_data import SINGLE_BYTE

_ASCII = "".join(map(chr, range(0x80)))


@cache
def charmap_table(encoding_name: str) -> str:
    """The 256-character decoding table of a single-byte encoding or x-user-defined."""
    if encoding_name == "x-user-defined":
        return _ASCII + "".join(chr(0xF780 + b - 0x80) for b in range(0x80, 0x100))
    return _ASCII + SINGLE_BYTE[encoding_name].replace("\x00", "\ufffd")


def _decode_charmap(data: bytes, encoding_name: str) -> str:
    """A single-byte encoding or x-user-defined (bytes 0x80-0xFF: U+F780-U+F7FF): a table
    lookup per byte, compiled when built with it, else CPython's ``charmap_decode`` (no table
    entry is undefined, so "strict" never raises)."""
    if compiled is not None:
        return compiled.decode_single_byte(data, charmap_table(encoding_name))  # type: ignore[no-any-return]
    return codecs.charmap_decode(data, "strict", charmap_table(encoding_name))[0]


def is_ascii(data: bytes) -> bool:
    """``data.isascii()``, remembered for the last ``bytes`` body of 4 KB to 1 MB asked: the
    middleware, sniffing, detection and the statistic ask it in turn of the same body (some
    2 us each on a 30 KB ASCII page). That body is kept until another is asked."""
    global _last_ascii
    last = _last_ascii
    if last[0] is data:  # (the same object: bytes cannot change, and it is kept alive here)
        return last[1]
    answer = _isascii(data)
    if type(data) is bytes and _REMEMBERED_ASCII[0] <= len(data) <= _REMEMBERED_ASCII[1]:
        _last_ascii = (data, answer)
    return answer


_isascii = methodcaller("isascii")  # (bytes, bytearray or memoryview)
_last_ascii: tuple[bytes, bool] = (b"", True)
_REMEMBERED_ASCII = (4096, 1 << 20)  # shorter costs little; longer is not kept alive


def _holds_word(data: bytes, word: bytes, end: int) -> bool:
    return word in data[:end].lower()


# Whether ``data[:end]`` holds ``word`` (lowercase ASCII letters) in any ASCII letter case:
# ``word in data[:end].lower()``, without the copy when compiled (called as it is: a wrapper
# would cost more than the search of a page's first 1,024 bytes). ``end`` is a length (not
# negative).
holds_word: Callable[[bytes, bytes, int], bool] = (
    _holds_word if compiled is None else compiled.holds_word
)


@cache
def _any_pattern(strings: tuple[bytes, ...]) -> re.Pattern[bytes]:
    return re.compile(b"|".join(map(re.escape, strings)))


def _holds_any(data: bytes, strings: tuple[bytes, ...]) -> bool:
    return bool(strings) and _any_pattern(strings).search(data) is not None


# Whether ``data`` holds any of ``strings`` (a tuple of non-empty bytes) anywhere: one pass
# when compiled (a regular expression's search of a 9 KB page for GBK's 21 sequences costs
# some 28 us), else one search with a pattern.
holds_any: Callable[[bytes, tuple[bytes, ...]], bool] = (
    _holds_any if compiled is None else compiled.holds_any
)


_HIGH_BYTE = lazy_compile(rb"[\x80-\xff]")


def _first_high_byte(data: bytes, start: int) -> int:
    found = _HIGH_BYTE.search(data, max(start, 0))
    return -1 if found is None else found.start()


# The offset of the first byte 0x80-0xFF of ``data`` at or after ``start``, or -1: sixteen
# bytes at a time when compiled (a pattern's search takes some 3 ns a byte).
first_high_byte: Callable[[bytes, int], int] = (
    _first_high_byte if compiled is None else compiled.first_high_byte
)


def decode_utf16(data: bytes | memoryview, big_endian: bool) -> str:
    """The spec's UTF-16BE (``big_endian``) or UTF-16LE decoder: compiled (a copy of the units
    where none is a surrogate), else Python's codec, which reads pairs and errors as the spec
    does."""
    if compiled is not None:
        return compiled.utf16_decode(data, big_endian)
    return str(data, "utf-16-be" if big_endian else "utf-16-le", "replace")


def _decode_utf8_from(data: bytes, start: int) -> str:
    if start <= 0:
        return str(data, "utf-8", "replace")
    return str(memoryview(data)[start:], "utf-8", "replace")


# ``data[start:]`` decoded as UTF-8 (error mode replacement: CPython's decoder, which replaces
# maximal subparts as the spec does) without a copy of it; start is 0, or 3 after a UTF-8 BOM.
# Compiled, two passes (the length and widest character, then the characters written into a
# str made once; CPython's decoder for the whole input at an error), ASCII sixteen bytes at a
# time: faster than CPython's decoder on every kind of valid text (docs/speed.md).
decode_utf8_from: Callable[[bytes, int], str] = (
    _decode_utf8_from if compiled is None else compiled.decode_utf8_from
)


def decode_without_bom(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode without BOM* (error mode replacement), fast."""
    name = encoding.name
    if name == "UTF-8":
        return decode_utf8_from(data, 0)
    if name == "UTF-16LE":
        return decode_utf16(data, False)
    if name == "UTF-16BE":
        return decode_utf16(data, True)
    if name == "replacement":
        return "\ufffd" if data else ""
    if name in SINGLE_BYTE or name == "x-user-defined":
        return _decode_charmap(data, name)
    return cjk.decode(data, encoding)


class StreamDecoder(Protocol):
    def decode(self, data: bytes, final: bool) -> str: ...


class _Stateless:
    """Single-byte encodings: every byte is a whole character."""

    def __init__(self, encoding: Encoding) -> None:
        self._encoding = encoding

    def decode(self, data: bytes, final: bool) -> str:
        return decode_without_bom(data, self._encoding)


class _Replacement:
    """replacement: one U+FFFD for a whole non-empty stream."""

    def __init__(self) -> None:
        self._error_returned = False

    def decode(self, data: bytes, final: bool) -> str:
        if data and not self._error_returned:
            self._error_returned = True
            return "\ufffd"
        return ""


class _HoldBack:
    """Decode up to the last safe cut; keep the rest for the next chunk."""

    def __init__(self, encoding: Encoding) -> None:
        self._encoding = encoding
        self._pending = b""

    def decode(self, data: bytes, final: bool) -> str:
        data = self._pending + data if self._pending else data
        if final:
            self._pending = b""
            return decode_without_bom(data, self._encoding)
        cut = safe_cut(data, self._encoding)
        self._pending = data[cut:]
        return decode_without_bom(data[:cut], self._encoding)


def stream_decoder(encoding: Encoding) -> StreamDecoder:
    """A new streaming decoder for ``encoding``."""
    name = encoding.name
    if name == "replacement":
        return _Replacement()
    if name in SINGLE_BYTE or name == "x-user-defined":
        return _Stateless(encoding)
    if name == "ISO-2022-JP":
        from .cjk import ISO2022JPStream

        return ISO2022JPStream()
    return _HoldBack(encoding)


_TAIL = 4096
# Without any safe byte, find a boundary with the reference decoder once this much is pending.
_MAX_PENDING = 1 << 16


def safe_cut(data: bytes, encoding: Encoding) -> int:
    """A position in ``data`` where the spec's decoder (started at 0) is in its initial state.

    Decoding ``data[:cut]`` and ``data[cut:]`` separately gives the same text as decoding
    ``data`` whole. The cut is as late as cheaply possible.
    """
    name = encoding.name
    n = len(data)
    if name == "UTF-8":
        # Before any byte that is not a continuation byte the decoder is reset: the spec
        # restores such a byte after an incomplete sequence, and end-of-queue gives the same
        # single error. Four continuation bytes in a row cannot leave a sequence open.
        for i in range(n - 1, max(n - 5, -1), -1):
            if not 0x80 <= data[i] <= 0xBF:
                return i
        return n
    if name in ("UTF-16LE", "UTF-16BE"):
        cut = n - n % 2
        if cut >= 2:
            high = data[cut - 1] if name == "UTF-16LE" else data[cut - 2]
            if 0xD8 <= high <= 0xDB:  # a leading surrogate waits for its trail
                cut -= 2
        return cut
    # The last byte after which the decoder is surely in its initial state: a byte below the
    # lowest trail byte is either a character of its own or ends an error (the spec restores
    # it and then reads it as ASCII).
    pattern = cjk.safe_byte_pattern(name)
    start = max(0, n - _TAIL)
    while True:
        tail = data[start:][::-1]
        match = pattern.search(tail)
        if match is not None:
            return n - match.start()
        if start == 0:
            break
        start = max(0, start - 16 * _TAIL)
    if n < _MAX_PENDING:
        return 0
    # Units are at most 4 bytes: those starting by n - 8 end before the data does.
    found = cjk.table_decoder(name).boundary(data, n - 8)
    if found is None:
        from . import reference  # without the compiled decoders: the spec-literal one

        return reference.last_cut(data, encoding, n - 8)
    return found
