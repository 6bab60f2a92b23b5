"""Fast, spec-exact decoders for the CJK encodings.

GBK, gb18030, Big5, EUC-JP, Shift_JIS and EUC-KR run on the nearest CPython C codec
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

from . import reference
from .labels import BY_NAME, Encoding
from .tables.fast_cjk_data import FAST_CJK

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
_BLOCK = 1 << 16  # unit-by-unit decoding works in blocks of about this many bytes
_DIGITS = range(0x30, 0x3A)


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
        self.codec, self.fixes, self.suspects = FAST_CJK[name]
        self._is_gb18030 = name in ("GBK", "gb18030")
        self._units = re.compile(_UNIT_PATTERNS[name])
        self._safe = re.compile(SAFE_BYTE_PATTERNS[name])
        watched = sorted(set(self.fixes) | set(self.suspects))
        self._watch = re.compile("[" + "".join(map(re.escape, watched)) + "]") if watched else None
        self._fix_pattern = (
            re.compile("[" + "".join(map(re.escape, sorted(self.fixes))) + "]")
            if self.fixes
            else None
        )
        self._table = _UnitTable(self.unit_text)
        self._local = threading.local()
        self._error_name = f"scrapy_charset.whatwg.{name}"
        codecs.register_error(self._error_name, self._on_error)

    def unit_text(self, unit: bytes, at_end: bool) -> str:
        """The spec's output for one unit; ``at_end``: nothing follows it."""
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
        return self.unit_text(match.group(), end == len(data)), end

    def decode(self, data: bytes) -> str:
        self._local.errors = 32 + len(data) // 512
        try:
            text = data.decode(self.codec, self._error_name)
        except _TooManyErrors:
            return self.decode_units(data)
        if self._watch is None or self._watch.search(text) is None:
            return text
        for char, sequences in self.suspects.items():
            if char in text and any(seq in data for seq in sequences):
                return self.decode_units(data)
        if self._fix_pattern is not None:
            fixes = self.fixes
            text = self._fix_pattern.sub(lambda m: fixes[m.group()], text)
        return text

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


@cache
def table_decoder(name: str) -> _TableDecoder:
    return _TableDecoder(name)


# ISO-2022-JP ---------------------------------------------------------------------------------

ASCII, ROMAN, KATAKANA, JIS0208 = "ASCII", "Roman", "katakana", "leading byte"
_ESCAPE = re.compile(rb"\x1b(?:\([BJI]|\$[@B])?")
_ESCAPE_STATES = {
    b"\x1b(B": ASCII,
    b"\x1b(J": ROMAN,
    b"\x1b(I": KATAKANA,
    b"\x1b$@": JIS0208,
    b"\x1b$B": JIS0208,
}
_INCOMPLETE_ESCAPE = re.compile(rb"\x1b[($]?\Z")
_JIS_BYTES = bytes(range(0x21, 0x7F))
_TO_EUC = bytes.maketrans(_JIS_BYTES, bytes(range(0xA1, 0xFF)))
_JIS_UNITS = re.compile(rb"[\x21-\x7e]{2}|[\x21-\x7e]?[^\x21-\x7e]|[\x21-\x7e]")
_JIS_COMPLETE = re.compile(rb"(?:[\x21-\x7e]{2}|[\x21-\x7e]?[^\x21-\x7e])*")


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


_STATE_TABLES = {state: _single_byte_state_table(state) for state in (ASCII, ROMAN, KATAKANA)}


def _jis0208_unit(unit: bytes) -> str:
    if len(unit) == 2 and unit[1] in range(0x21, 0x7F) and unit[0] in range(0x21, 0x7F):
        return table_decoder("EUC-JP").decode(unit.translate(_TO_EUC))
    return "\ufffd"  # a byte that is no lead, a lead without a valid trail, or a lone lead


def _decode_segment(segment: bytes, state: str) -> str:
    """Bytes between escape sequences, all read in one state."""
    if state != JIS0208:
        return codecs.charmap_decode(segment, "strict", _STATE_TABLES[state])[0]
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


def decode(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode without BOM* for a CJK encoding (error mode replacement)."""
    if encoding.name == "ISO-2022-JP":
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
