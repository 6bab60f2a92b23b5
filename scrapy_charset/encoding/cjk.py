"""Fast, spec-exact decoders for the CJK encodings.

GBK, gb18030, Big5, EUC-JP, Shift_JIS and EUC-KR run on the compiled decoders of
``_speedups.c`` when the package was built with them (``compiled`` is then that module). They
are the spec's decoders written in C over the same generated indexes, swept against
:mod:`.reference` by the tests. Without them, they run on the nearest CPython C codec
(``tables/fast_cjk_data.py`` names it) with three guards derived by sweeping the codec against
the spec (``tables/derive_fast.py``):

1. where the C codec rejects bytes, an error handler emits the spec's output for the *unit* at
   that position (the spec's tokenisation, see ``_UNIT_PATTERNS``) and resumes after it;
2. characters the codec maps differently from the index are repaired afterwards (``fixes``);
3. if the output holds a character the codec also produces for bytes the spec reads otherwise
   (``suspects``), and those bytes occur in the input, the input is decoded unit by unit.

Inputs with many errors are decoded unit by unit too: a table lookup per unit beats an error
handler call per error. ISO-2022-JP is decoded segment by segment between escape sequences.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from .._regex import lazy_compile
from .labels import BY_NAME, Encoding
from .tables.fast_cjk_data import FAST_CJK

compiled: ModuleType | None
try:
    from . import _speedups as compiled
except ImportError:  # built without a C compiler: the pure-Python paths below
    compiled = None

# One spec *unit* (what the spec's decoder reads from its initial state to its initial state
# again, counting a restored ASCII byte as part of the unit) at each position. The last
# alternative always matches, so every position starts a unit.
_UNIT_PATTERNS: dict[str, bytes] = {
    "Shift_JIS": rb"[\x81-\x9f\xe0-\xfc][\x00-\xff]|[\x00-\xff]",
    "EUC-KR": rb"[\x81-\xfe][\x00-\xff]|[\x00-\xff]",
    "Big5": rb"[\x81-\xfe][\x00-\xff]|[\x00-\xff]",
    "EUC-JP": rb"\x8f[\xa1-\xfe][\x00-\xff]|[\x8e\x8f\xa1-\xfe][\x00-\xff]|[\x00-\xff]",
    "gb18030": (
        rb"[\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39]"
        rb"|[\x81-\xfe][\x30-\x39][\x81-\xfe]\Z"
        rb"|[\x81-\xfe][\x00-\xff]|[\x00-\xff]"
    ),
}
_UNIT_PATTERNS["GBK"] = _UNIT_PATTERNS["gb18030"]
# After one of these bytes the spec's decoder is in its initial state (see fast.safe_cut).
SAFE_BYTE_PATTERNS: dict[str, bytes] = {
    "Shift_JIS": rb"[\x00-\x3f]",
    "Big5": rb"[\x00-\x3f]",
    "EUC-KR": rb"[\x00-\x40]",
    "GBK": rb"[\x00-\x2f]",
    "gb18030": rb"[\x00-\x2f]",
    "EUC-JP": rb"[\x00-\x7f]",
}


@cache
def safe_byte_pattern(name: str) -> re.Pattern[bytes]:
    """A byte after which the decoder of CJK encoding ``name`` is in its initial state."""
    return re.compile(SAFE_BYTE_PATTERNS[name])


_BLOCK = 1 << 16  # unit-by-unit decoding works in blocks of about this many bytes
_DIGITS = range(0x30, 0x3A)


def _repair(
    text: str,
    data: bytes,
    fixes: dict[str, str],
    watched: dict[str, tuple[bytes, ...]],
    suspects: dict[str, tuple[bytes, ...]],
) -> str | None:
    """Apply the fix-ups to a C codec's output; None if a suspect character may be wrong."""
    hits = [c for c in watched if c in text]
    if not hits:
        return text
    for char in hits:
        # A suspect character is wrong only if its byte sequences are in the input.
        if char in suspects and any(seq in data for seq in suspects[char]):
            return None
    # Every occurrence of a fixed character came from its byte sequences.
    found = {c: fixes[c] for c in hits if c in fixes}
    if any(c in found for fixed in found.values() for c in fixed):
        return text.translate({ord(c): fixed for c, fixed in found.items()})  # a swap
    for char, fixed in found.items():
        text = text.replace(char, fixed)
    return text


class _TooManyErrors(Exception):
    """Raised by the error handler to switch to unit-by-unit decoding."""


class _UnitTable(dict[bytes, str]):
    """Unit bytes -> the spec's output, filled from the spec-literal decoder on first use."""

    def __init__(self, unit_text: Callable[[bytes, bool], str]) -> None:
        super().__init__()
        self._unit_text = unit_text

    def __missing__(self, unit: bytes) -> str:
        text = self._unit_text(unit, False)
        if len(unit) < 4:  # four-byte gb18030 units are too many to keep
            self[unit] = text
        return text


class _TableDecoder:
    """A stateless CJK encoding: C codec plus spec guards, or unit by unit."""

    def __init__(self, name: str) -> None:
        self.encoding = BY_NAME[name]
        self.codec, self.fixes, fix_sequences, self.suspects = FAST_CJK[name]
        # Characters to look at after decoding, with the input bytes that can produce them.
        self._watched = {**fix_sequences, **self.suspects}
        self._is_gb18030 = name in ("GBK", "gb18030")
        self._units = re.compile(_UNIT_PATTERNS[name])
        self._safe = safe_byte_pattern(name)
        self._table = _UnitTable(self.unit_text)
        self._local = threading.local()
        self._error_name = f"scrapy_charset.whatwg.{name}"
        codecs.register_error(self._error_name, self._on_error)
        self._compiled_args: tuple[Any, ...] | None = None  # filled on first use

    def unit_text(self, unit: bytes, at_end: bool) -> str:
        """The spec's output for one unit; ``at_end``: nothing follows it."""
        from . import reference  # the spec-literal decoders: only for units met here

        if self._is_gb18030 and len(unit) == 2 and unit[1] in _DIGITS and not at_end:
            # gb18030 second byte was a digit but no third byte followed: the spec restores
            # the digit and the next byte, so the digit is output as itself.
            return "\ufffd" + chr(unit[1])
        return reference.decode_without_bom(unit, self.encoding)

    def _on_error(self, exc: UnicodeError) -> tuple[str, int]:
        if not isinstance(exc, UnicodeDecodeError):
            raise exc
        local = self._local
        local.errors -= 1
        if local.errors < 0:
            raise _TooManyErrors
        data = exc.object
        match = self._units.match(data, exc.start)
        assert match is not None  # the last alternative matches any byte
        end = match.end()
        if end == len(data):
            return self.unit_text(match.group(), True), end
        return self._table[match.group()], end

    def _compiled(self, compiled: ModuleType) -> tuple[Any, ...]:
        if self._compiled_args is None:
            self._compiled_args = _compiled_args(compiled, self.encoding.name)
        return self._compiled_args

    def decode(self, data: bytes) -> str:
        if compiled is not None:
            return compiled.decode(data, *self._compiled(compiled))
        return self.decode_python(data)

    def boundary(self, data: bytes, limit: int) -> int | None:
        """With the compiled decoders, ``reference.last_cut``: the last position <= ``limit``
        where ``data`` can be cut without changing its text (0 if none); None without them."""
        if compiled is None:
            return None
        number, *indexes = self._compiled(compiled)
        return compiled.boundary(data, number, limit, *indexes)  # type: ignore[no-any-return]

    def decode_python(self, data: bytes) -> str:
        """Without the compiled decoders: the C codec with guards, or unit by unit."""
        self._local.errors = 32 + len(data) // 512
        try:
            text = data.decode(self.codec, self._error_name)
        except _TooManyErrors:
            return self.decode_units(data)
        repaired = _repair(text, data, self.fixes, self._watched, self.suspects)
        return self.decode_units(data) if repaired is None else repaired

    def decode_units(self, data: bytes) -> str:
        """Decode unit by unit with a table lookup each: spec-exact for any input."""
        parts = []
        lookup = self._table.__getitem__
        start = 0
        n = len(data)
        while start < n:
            # Blocks end right after a byte that leaves the decoder in its initial state, so
            # no unit straddles two blocks.
            end = n
            if start + _BLOCK < n:
                safe = self._safe.search(data, start + _BLOCK)
                if safe is not None:
                    end = safe.end()
            units = self._units.findall(data, start, end)
            if end == n:
                last = units.pop()
                parts.append("".join(map(lookup, units)))
                parts.append(self.unit_text(last, True))
            else:
                parts.append("".join(map(lookup, units)))
            start = end
        return "".join(parts)


def _compiled_args(compiled: ModuleType, name: str) -> tuple[Any, ...]:
    """The arguments of ``_speedups.decode`` after the data: encoding number and indexes."""
    from . import reference  # loads the indexes

    if name in ("GBK", "gb18030"):
        from .tables.gb18030_ranges_data import RANGES

        pointers = "".join(chr(pointer) for pointer, _ in RANGES)
        code_points = "".join(chr(code_point) for _, code_point in RANGES)
        return compiled.GB18030, reference.load_index("index_gb18030_data"), pointers, code_points
    if name == "EUC-JP":
        jis0208 = reference.load_index("index_jis0208_data")
        return compiled.EUC_JP, jis0208, reference.load_index("index_jis0212_data")
    number, module = {
        "Shift_JIS": (compiled.SHIFT_JIS, "index_jis0208_data"),
        "EUC-KR": (compiled.EUC_KR, "index_euc_kr_data"),
        "Big5": (compiled.BIG5, "index_big5_data"),
    }[name]
    return number, reference.load_index(module)


@cache
def table_decoder(name: str) -> _TableDecoder:
    return _TableDecoder(name)


# ISO-2022-JP ---------------------------------------------------------------------------------

ASCII, ROMAN, KATAKANA, JIS0208 = "ASCII", "Roman", "katakana", "leading byte"
_ESCAPE = lazy_compile(rb"\x1b(?:\([BJI]|\$[@B])?")
_ESCAPE_STATES = {
    b"\x1b(B": ASCII,
    b"\x1b(J": ROMAN,
    b"\x1b(I": KATAKANA,
    b"\x1b$@": JIS0208,
    b"\x1b$B": JIS0208,
}
_INCOMPLETE_ESCAPE = lazy_compile(rb"\x1b[($]?\Z")
_JIS_BYTES = bytes(range(0x21, 0x7F))
_TO_EUC = bytes.maketrans(_JIS_BYTES, bytes(range(0xA1, 0xFF)))
_JIS_UNITS = lazy_compile(rb"[\x21-\x7e]{2}|[\x21-\x7e]?[^\x21-\x7e]|[\x21-\x7e]")
_JIS_COMPLETE = lazy_compile(rb"(?:[\x21-\x7e]{2}|[\x21-\x7e]?[^\x21-\x7e])*")


@cache  # built on the first ISO-2022-JP page that uses the state
def _single_byte_state_table(state: str) -> str:
    table = ["\ufffd"] * 256
    for byte in range(0x80):
        if state in (ASCII, ROMAN) and byte not in (0x0E, 0x0F, 0x1B):
            table[byte] = chr(byte)
        if state == KATAKANA and 0x21 <= byte <= 0x5F:
            table[byte] = chr(0xFF61 - 0x21 + byte)
    if state == ROMAN:
        table[0x5C], table[0x7E] = "\u00a5", "\u203e"
    return "".join(table)


def _jis0208_unit(unit: bytes) -> str:
    if len(unit) == 2 and unit[1] in range(0x21, 0x7F) and unit[0] in range(0x21, 0x7F):
        return table_decoder("EUC-JP").decode(unit.translate(_TO_EUC))
    return "\ufffd"  # a byte that is no lead, a lead without a valid trail, or a lone lead


def _decode_segment(segment: bytes, state: str) -> str:
    """Bytes between escape sequences, all read in one state."""
    if state != JIS0208:
        return codecs.charmap_decode(segment, "strict", _single_byte_state_table(state))[0]
    if len(segment) % 2 == 0 and not segment.translate(None, _JIS_BYTES):
        # Only lead/trail bytes, in pairs: EUC-JP's JIS X 0208 area is the same index.
        return table_decoder("EUC-JP").decode(segment.translate(_TO_EUC))
    return "".join(map(_jis0208_unit, _JIS_UNITS.findall(segment)))


def decode_iso_2022_jp(
    data: bytes, state: str = ASCII, output: bool = False, final: bool = True
) -> tuple[str, str, bool, int]:
    """ISO-2022-JP from decoder state ``state`` and output flag ``output``.

    Returns the text, the state and output flag after it, and how many bytes were used (all
    of them when ``final``; otherwise an unfinished escape or a lone lead byte is left).
    """
    end = len(data)
    if not final:
        incomplete = _INCOMPLETE_ESCAPE.search(data, max(0, end - 2))
        if incomplete is not None:
            end = incomplete.start()
    parts: list[str] = []
    pos = 0
    for match in _ESCAPE.finditer(data, 0, end):
        if match.start() > pos:
            parts.append(_decode_segment(data[pos : match.start()], state))
            output = False
        escape = match.group()
        if len(escape) == 1:
            # Not an escape sequence: an error; the bytes after ESC are read in the same state.
            parts.append("\ufffd")
            output = False
        else:
            if output:  # two escape sequences with nothing between them
                parts.append("\ufffd")
            state = _ESCAPE_STATES[escape]
            output = True
        pos = match.end()
    if pos < end:
        if not final and state == JIS0208:
            complete = _JIS_COMPLETE.match(data, pos, end)
            assert complete is not None  # the pattern matches the empty string
            stop = complete.end()
        else:
            stop = end
        if stop > pos:
            parts.append(_decode_segment(data[pos:stop], state))
            output = False
        end = stop
    return "".join(parts), state, output, end


_ESCAPE_SPLIT = lazy_compile(rb"(\x1b(?:\([BJI]|\$[@B])?)")
# JIS X 0208 bytes to EUC-JP's, and any other byte to 0x80, which no ISO-2022-JP text has
# (ESC, never inside a segment, stays: it separates segments translated in one go).
_TO_EUC_OR_MARK = bytes(
    b + 0x80 if 0x21 <= b <= 0x7E else 0x1B if b == 0x1B else 0x80 for b in range(256)
)


def _iso_2022_jp_as_euc_jp(data: bytes) -> bytes | None:
    """Well-formed ISO-2022-JP as EUC-JP bytes with the same text, else None.

    Well-formed: ASCII bytes only, no SO/SI, only ASCII and JIS X 0208 escape sequences, never
    two in a row, JIS X 0208 segments of JIS X 0208 bytes and never two such segments in a row.
    Then JIS X 0208 is EUC-JP's two-byte area shifted by 0x80, and a lone lead byte before an
    escape sequence gives one error either way (before an ASCII byte EUC-JP restores it).
    """
    if not data.isascii() or b"\x0e" in data or b"\x0f" in data:
        return None
    alternating = _alternating_as_euc_jp(data)
    if alternating is not None:
        return alternating
    parts = _ESCAPE_SPLIT.split(data)
    escapes, segments = parts[1::2], parts[2::2]
    if not escapes:
        return data
    if min(map(len, escapes)) != 3 or not all(segments[:-1]):
        return None  # an ESC that starts no escape sequence, or two escape sequences in a row
    joined = b"".join(escapes)
    kinds = joined[1::3]  # "(" for ASCII, "$" for JIS X 0208
    if b"\x1b(J" in joined or b"\x1b(I" in joined or b"$$" in kinds:
        return None
    # Usually the states alternate: translate every other segment in one call.
    first_jis = _alternating_jis_start(kinds)
    if first_jis is not None:
        jis = segments[first_jis::2]
        segments[first_jis::2] = b"\x1b".join(jis).translate(_TO_EUC_OR_MARK).split(b"\x1b")
    else:
        segments = [
            seg.translate(_TO_EUC_OR_MARK) if kind == 0x24 else seg
            for kind, seg in zip(kinds, segments, strict=True)
        ]
    euc = parts[0] + b"".join(segments)
    return None if b"\x80" in euc else euc


_SO, _SI = b"\x0e", b"\x0f"  # stand-ins for the two escape sequences; absent from the input
_ONLY_SO_SI = bytes(b for b in range(256) if b not in (0x0E, 0x0F))
_TO_EUC_KEEP_SO = bytes(
    b + 0x80 if 0x21 <= b <= 0x7E else 0x0E if b == 0x0E else 0x80 for b in range(256)
)


def _alternating_as_euc_jp(data: bytes) -> bytes | None:
    """The common shape, ASCII and JIS X 0208 taking turns, with whole-buffer operations only.

    Each escape sequence becomes one separator byte, the buffer is split on it both as it is
    and shifted to EUC-JP, and every other piece is taken from the shifted copy.
    """
    marked = (
        data.replace(b"\x1b$B", _SO).replace(b"\x1b$@", _SO).replace(b"\x1b(B", _SI)
    )
    if b"\x1b" in marked or _SO + _SI in marked or _SI + _SO in marked:
        return None  # other or broken escape sequences, or two in a row
    order = marked.translate(None, _ONLY_SO_SI)
    if order[0::2].strip(_SO) or order[1::2].strip(_SI):
        return None  # not strictly JIS X 0208, ASCII, JIS X 0208, ...
    marked = marked.replace(_SI, _SO)
    pieces = marked.split(_SO)
    pieces[1::2] = marked.translate(_TO_EUC_KEEP_SO).split(_SO)[1::2]
    del marked
    euc = b"".join(pieces)
    return None if b"\x80" in euc else euc


def _alternating_jis_start(kinds: bytes) -> int | None:
    """0 or 1 if every other escape sequence selects JIS X 0208 starting there, else None."""
    for start, other in ((0, 1), (1, 0)):
        jis, ascii_ = kinds[start::2], kinds[other::2]
        if jis and not jis.strip(b"$") and not ascii_.strip(b"("):
            return start
    return None


_ISO_BLOCK = 1 << 18


def _iso_2022_jp_blocks_as_euc_jp(data: bytes) -> bytes | None:
    """``_iso_2022_jp_as_euc_jp`` a block at a time, to keep the copies small.

    Blocks start at an ESC $ B that does not directly follow another escape sequence, and
    every block but the last must end in the ASCII state, so each block starts as a whole
    input does and the EUC-JP decoder is in its initial state between blocks.
    """
    if len(data) <= 2 * _ISO_BLOCK:
        return _iso_2022_jp_as_euc_jp(data)
    parts = []
    start = 0
    while start < len(data):
        cut = data.find(b"\x1b$B", start + _ISO_BLOCK)
        while cut != -1 and data[cut - 3 : cut] in _ESCAPE_STATES:
            cut = data.find(b"\x1b$B", cut + 3)
        end = len(data) if cut == -1 else cut
        block = data[start:end]
        if end < len(data) and block.rfind(b"\x1b") != block.rfind(b"\x1b(B"):
            return None
        euc = _iso_2022_jp_as_euc_jp(block)
        if euc is None:
            return None
        parts.append(euc)
        start = end
    return b"".join(parts)


# Where Python's codec and the spec part ways, at an ESC: an ESC that starts no ASCII or JIS X
# 0208 escape sequence (Roman and katakana included), two escape sequences in a row (the spec
# errs), a C0 control byte in a JIS X 0208 segment (the codec passes it, the spec errs). The
# lookahead and backreference make the run of JIS bytes atomic: no backtracking into it.
_ISO_NOT_FOR_CODEC = lazy_compile(
    rb"\x1b(?:(?!\(B|\$[@B])|(?:\(B|\$[@B])\x1b"
    rb"|\$[@B](?=([\x21-\x7e]*))\1[\x00-\x1a\x1c-\x1f])"
)


def _iso_2022_jp_by_codec(data: bytes) -> str | None:
    """Python's ``iso2022_jp`` codec, on input where it provably reads as the spec does.

    That is: ASCII bytes only, no SO/SI, only the ASCII and JIS X 0208 escape sequences and
    never two in a row, no control byte in a JIS X 0208 segment. The codec itself refuses any
    other byte there and a lead byte without a trail; its JIS X 0208 table differs from the
    index only by ``fixes`` (derived by sweeping every pair).
    """
    if not data.isascii() or b"\x0e" in data or b"\x0f" in data:
        return None
    if _ISO_NOT_FOR_CODEC.search(data):
        return None
    codec, fixes, fix_sequences, suspects = FAST_CJK["ISO-2022-JP"]
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None  # a pair the codec does not know (the spec's index may)
    return _repair(text, data, fixes, {**fix_sequences, **suspects}, suspects)


def decode(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode without BOM* for a CJK encoding (error mode replacement)."""
    if encoding.name == "ISO-2022-JP":
        if compiled is not None:
            from . import reference  # loads the index

            jis0208 = reference.load_index("index_jis0208_data")
            return compiled.decode(data, compiled.ISO_2022_JP, jis0208)
        text = _iso_2022_jp_by_codec(data)
        if text is not None:
            return text
        euc = _iso_2022_jp_blocks_as_euc_jp(data)
        if euc is not None:
            return table_decoder("EUC-JP").decode(euc)
        return decode_iso_2022_jp(data)[0]
    return table_decoder(encoding.name).decode(data)


class ISO2022JPStream:
    """Streaming ISO-2022-JP: the state and output flag carry over between chunks."""

    def __init__(self) -> None:
        self._state = ASCII
        self._output = False
        self._pending = b""

    def decode(self, data: bytes, final: bool) -> str:
        data = self._pending + data if self._pending else data
        text, self._state, self._output, used = decode_iso_2022_jp(
            data, self._state, self._output, final
        )
        self._pending = data[used:]
        return text
