"""The Encoding Standard's encoders, in error mode ``"html"`` (``&#N;``) or ``"fatal"``.

What a browser sends for URL queries and form data: ``encode(text, encoding)``, after the
spec's *get an output encoding* (:func:`output_encoding`: replacement, UTF-16BE and UTF-16LE
encode as UTF-8).

Every encoder is one table from code point to bytes (:func:`encoder_table`), built from the
same generated index modules the decoders read, with each encoding's rules from the spec
(https://encoding.spec.whatwg.org/, the *encoder* steps of sections 9-14):

- single-byte encodings: the index pointer plus 0x80; x-user-defined: U+F780-U+F7FF;
- gb18030: 18 private-use code points as their GB18030-2005 bytes, then the index, else the
  *index gb18030 ranges pointer* as four bytes; U+E5E5 is an error. GBK: the same two-byte
  part, U+20AC as 0x80, no four-byte sequences;
- Big5: the *index Big5 pointer* (pointers below (0xA1 - 0x81) * 157, the HKSCS extensions, are
  never used; U+2550, U+255E, U+2561, U+256A, U+5341 and U+5345 take their last pointer);
- EUC-JP: JIS X 0208 only (no JIS X 0212), U+00A5 -> 0x5C, U+203E -> 0x7E, U+2212 as U+FF0D,
  halfwidth katakana as 0x8E plus a byte;
- Shift_JIS: the *index Shift_JIS pointer* (pointers 8272-8835 excluded), U+0080 -> 0x80,
  U+00A5, U+203E and U+2212 as for EUC-JP, halfwidth katakana as single bytes;
- ISO-2022-JP: the spec's state machine (ASCII, Roman for U+00A5/U+203E, JIS X 0208, halfwidth
  katakana through index ISO-2022-JP katakana), ending in the ASCII state.

The compiled encoder in ``_speedups`` runs the table; :func:`encode_python` is the same in pure
Python (used without the extension). ``tests/encoding`` sweeps both against the spec-literal
encoders of :mod:`.reference_encoders` on every index pointer.
"""

from __future__ import annotations

import codecs
from array import array
from collections.abc import Callable
from functools import cache, partial
from operator import methodcaller
from types import ModuleType
from typing import Any, Literal, TypeAlias

from .labels import BY_NAME, Encoding, get_encoding
from .tables import load_index
from .tables.single_byte_data import SINGLE_BYTE

ErrorMode: TypeAlias = Literal["html", "fatal"]

_NULL = "\x00"
UTF_8 = BY_NAME["UTF-8"]
_TO_UTF_8 = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})
# The Big5 code points whose index Big5 pointer is their last pointer, not their first.
BIG5_LAST_POINTER = frozenset({0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345})
BIG5_EXCLUDED_BELOW = (0xA1 - 0x81) * 157
SHIFT_JIS_EXCLUDED = range(8272, 8836)
# The gb18030/GBK encoder's table of private-use code points written as the two bytes GB18030-2005
# gave them (their pointers now decode to the characters GB18030-2022 assigned).
GB18030_PUA_BYTES: dict[int, bytes] = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}

# How the compiled encoder treats a table: kind numbers shared with _speedups.c.
TABLE, GB18030_KIND, ISO_2022_JP_KIND, UTF8_KIND = 0, 1, 2, 3


def output_encoding(encoding: Encoding | str) -> Encoding:
    """The spec's *get an output encoding*: UTF-8 for replacement, UTF-16BE and UTF-16LE."""
    enc = get_encoding(encoding)
    return UTF_8 if enc.name in _TO_UTF_8 else enc


def _pack(*values: int) -> int:
    packed = 0
    for value in values:
        packed = packed << 8 | value
    return packed


def _first_pointers(index: str, skip: range | None = None) -> dict[int, int]:
    """The spec's *index pointer*: code point -> first pointer (pointers in ``skip`` unused)."""
    pointers: dict[int, int] = {}
    for pointer, char in enumerate(index):
        if char == _NULL or (skip is not None and pointer in skip):
            continue
        pointers.setdefault(ord(char), pointer)
    return pointers


def big5_pointers() -> dict[int, int]:
    """The spec's *index Big5 pointer* for every code point that has one."""
    index = load_index("index_big5_data")
    pointers: dict[int, int] = {}
    for pointer in range(BIG5_EXCLUDED_BELOW, len(index)):
        char = index[pointer]
        if char == _NULL:
            continue
        cp = ord(char)
        if cp in BIG5_LAST_POINTER or cp not in pointers:
            pointers[cp] = pointer
    return pointers


def gb18030_ranges_pointer(cp: int) -> int:
    """The spec's *index gb18030 ranges pointer*."""
    if cp == 0xE7C7:
        return 7457
    from .tables.gb18030_ranges_data import RANGES

    best_pointer, best_cp = RANGES[0]
    for pointer, code_point in RANGES:
        if code_point > cp:
            break
        best_pointer, best_cp = pointer, code_point
    return best_pointer + cp - best_cp


def _four_bytes(pointer: int) -> int:
    byte1, pointer = divmod(pointer, 10 * 126 * 10)
    byte2, pointer = divmod(pointer, 10 * 126)
    byte3, byte4 = divmod(pointer, 10)
    return _pack(byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30)


@cache
def encoder_table(name: str) -> array[int]:
    """``name``'s encoder as 65536 packed byte sequences, one per BMP code point.

    An entry below 0x100 is one byte, below 0x10000 two bytes, else four (gb18030); 0 means
    the code point is an error. ASCII code points are not in the table (every encoder but
    ISO-2022-JP's writes them as themselves). For ISO-2022-JP the entry is the two JIS X 0208
    bytes of the code point (after U+2212 and halfwidth katakana are mapped).
    """
    table = array("I", bytes(4 * 0x10000))
    if name in SINGLE_BYTE:
        for cp, pointer in _first_pointers(SINGLE_BYTE[name]).items():
            table[cp] = pointer + 0x80
    elif name == "x-user-defined":
        for byte in range(0x80, 0x100):
            table[0xF780 + byte - 0x80] = byte
    elif name == "EUC-KR":
        for cp, pointer in _first_pointers(load_index("index_euc_kr_data")).items():
            table[cp] = _pack(pointer // 190 + 0x81, pointer % 190 + 0x41)
    elif name == "Big5":
        for cp, pointer in big5_pointers().items():
            if cp < 0x10000:
                table[cp] = _big5_bytes(pointer)
    elif name in ("gb18030", "GBK"):
        _fill_gb18030(table, name == "GBK")
    elif name in ("EUC-JP", "Shift_JIS", "ISO-2022-JP"):
        _fill_japanese(table, name)
    else:
        raise LookupError(f"no table encoder for {name}")
    return table


def _big5_bytes(pointer: int) -> int:
    lead, trail = divmod(pointer, 157)
    return _pack(lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62))


def _fill_gb18030(table: array[int], gbk: bool) -> None:
    pointers = _first_pointers(load_index("index_gb18030_data"))
    if not gbk:
        from .tables.gb18030_ranges_data import RANGES

        # The ranges pointer of every BMP code point, range by range (the last range start
        # at or below a code point is its offset); the index and U+E7C7 come after.
        starts = [(cp, pointer) for pointer, cp in RANGES if cp < 0x10000] + [(0x10000, 0)]
        for (start, pointer), (end, _) in zip(starts, starts[1:], strict=False):
            for cp in range(max(start, 0x80), end):
                table[cp] = _four_bytes(pointer + cp - start)
        table[0xE7C7] = _four_bytes(7457)
        for cp in range(0xD800, 0xE000):  # not scalar values: never encoded
            table[cp] = 0
    for cp, pointer in pointers.items():
        lead, trail = divmod(pointer, 190)
        table[cp] = _pack(lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41))
    for cp, pair in GB18030_PUA_BYTES.items():
        table[cp] = _pack(*pair)
    table[0xE5E5] = 0
    if gbk:
        table[0x20AC] = 0x80


def _fill_japanese(table: array[int], name: str) -> None:
    index = load_index("index_jis0208_data")
    skip = SHIFT_JIS_EXCLUDED if name == "Shift_JIS" else None
    for cp, pointer in _first_pointers(index, skip).items():
        lead, trail = divmod(pointer, 94 if name != "Shift_JIS" else 188)
        if name == "EUC-JP":
            table[cp] = _pack(lead + 0xA1, trail + 0xA1)
        elif name == "ISO-2022-JP":
            table[cp] = _pack(lead + 0x21, trail + 0x21)
        else:
            table[cp] = _pack(
                lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)
            )
    table[0x2212] = table[0xFF0D]
    katakana = load_index("index_iso_2022_jp_katakana_data")
    for cp in range(0xFF61, 0xFFA0):
        if name == "ISO-2022-JP":
            table[cp] = table[ord(katakana[cp - 0xFF61])]
        elif name == "EUC-JP":
            table[cp] = _pack(0x8E, cp - 0xFF61 + 0xA1)
        else:
            table[cp] = cp - 0xFF61 + 0xA1
    if name != "ISO-2022-JP":  # ISO-2022-JP writes these in its Roman state
        table[0x00A5] = 0x5C
        table[0x203E] = 0x7E
    if name == "Shift_JIS":
        table[0x0080] = 0x80


@cache
def big5_astral() -> dict[int, int]:
    """Big5's encodable code points outside the BMP, with their packed bytes."""
    return {cp: _big5_bytes(p) for cp, p in big5_pointers().items() if cp >= 0x10000}


def _bytes_of(packed: int) -> bytes:
    if packed < 0x100:
        return bytes((packed,))
    if packed < 0x10000:
        return packed.to_bytes(2, "big")
    return packed.to_bytes(4, "big")


class EncodeError(UnicodeEncodeError):
    """A code point the encoding cannot encode, in error mode ``"fatal"``."""


def _error(encoding: Encoding, text: str, pos: int) -> UnicodeEncodeError:
    return UnicodeEncodeError(
        f"scrapy-charset-{encoding.name.lower()}",
        text,
        pos,
        pos + 1,
        f"U+{ord(text[pos]):04X} is not in the Encoding Standard's {encoding.name} encoder",
    )


def _html(cp: int) -> bytes:
    return b"&#%d;" % cp


def _scalar(cp: int) -> int:
    return 0xFFFD if 0xD800 <= cp <= 0xDFFF else cp


def encode(text: str, encoding: Encoding | str, errors: ErrorMode = "html") -> bytes:
    """``text`` encoded with the Encoding Standard's encoder for ``encoding``.

    ``errors="html"`` writes a code point the encoding lacks as ``&#N;`` (what a browser
    sends in form data and URL queries); ``"fatal"`` raises :class:`UnicodeEncodeError`. A
    lone surrogate counts as U+FFFD (the spec encodes scalar values). replacement has no
    encoder (``ValueError``): apply :func:`output_encoding` first, as browsers do.
    """
    try:
        encoder = _ENCODERS[encoding, errors]
    except (KeyError, TypeError):
        encoder = _new_encoder(encoding, errors)
    if type(text) is not str and not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return encoder(text)


Encoder: TypeAlias = Callable[[str], bytes]
# (encoding or label as given, error mode) -> encoder; bounded by the labels in use.
_ENCODERS: dict[tuple[object, str], Encoder] = {}
_MAX_CACHED = 512


def encoder(encoding: Encoding | str, errors: ErrorMode = "html") -> Encoder:
    """A function encoding a string as :func:`encode` does with these arguments (made once)."""
    try:
        return _ENCODERS[encoding, errors]
    except (KeyError, TypeError):
        return _new_encoder(encoding, errors)


def _new_encoder(encoding: Encoding | str, errors: str) -> Encoder:
    if errors not in ("html", "fatal"):
        raise ValueError(f"errors must be 'html' or 'fatal', not {errors!r}")
    enc = get_encoding(encoding)
    made = _make_encoder(enc, errors)  # type: ignore[arg-type]
    if len(_ENCODERS) < _MAX_CACHED and isinstance(encoding, (str, Encoding)):
        _ENCODERS[encoding, errors] = made
    return made


def _make_encoder(enc: Encoding, errors: ErrorMode) -> Encoder:
    name = enc.name
    if name in _UTF_CODECS:
        # Python's own encoder (no Python frame per call); a lone surrogate becomes U+FFFD.
        return methodcaller("encode", _UTF_CODECS[name], _SURROGATE_ERRORS)
    if name == "replacement":
        raise ValueError("the replacement encoding has no encoder; use output_encoding()")
    compiled = _compiled()
    if compiled is None:
        return partial(_encode_python_checked, encoding=enc, errors=errors)
    table = encoder_table(name)
    kind = _kind(name)
    html = errors == "html"
    c_encode = compiled.encode
    big5 = name == "Big5"

    def encode_stops(text: str) -> bytes:
        chunk, stop = c_encode(text, 0, table, kind, html, big5)
        if stop >= len(text):
            return chunk  # type: ignore[no-any-return]
        return _finish_compiled(c_encode, text, enc, html, chunk, stop)

    if html:
        # One compiled call, no Python frame; only Big5's astral code points go to Python.
        return partial(compiled.encode_html, table, kind, big5, encode_stops)
    return encode_stops


_UTF_CODECS = {"UTF-8": "utf-8", "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le"}
_SURROGATE_ERRORS = "scrapy-charset-surrogate-as-fffd"


def _surrogate_as_fffd(error: UnicodeError) -> tuple[bytes, int]:
    """The error handler of the UTF encoders: the spec encodes scalar values, so a lone
    surrogate is U+FFFD (the only thing a UTF encoder can fail on)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    # Bytes, not "\ufffd": Python's UTF-8 encoder takes only ASCII text from a handler.
    return "\ufffd".encode(error.encoding) * (error.end - error.start), error.end


codecs.register_error(_SURROGATE_ERRORS, _surrogate_as_fffd)


def compiled_codec_encode(enc: Encoding, fallback: Callable[..., tuple[bytes, int]]) -> Any:
    """A codec encode function for ``enc`` run wholly in compiled code (no Python frame per
    call) in error mode html, handing other ``errors`` values and Big5's astral code points
    to ``fallback(text, errors)``; None without the extension or for the UTF encodings."""
    compiled = _compiled()
    if compiled is None or enc.name in ("UTF-16BE", "UTF-16LE", "replacement"):
        return None
    name = enc.name
    if name == "UTF-8":
        return partial(compiled.codec_encode, b"", UTF8_KIND, False, fallback)
    return partial(
        compiled.codec_encode, encoder_table(name), _kind(name), name == "Big5", fallback
    )


def _encode_python_checked(text: str, encoding: Encoding, errors: ErrorMode) -> bytes:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return encode_python(text, encoding, errors)


def _kind(name: str) -> int:
    if name == "gb18030":
        return GB18030_KIND
    if name == "ISO-2022-JP":
        return ISO_2022_JP_KIND
    return TABLE


def _finish_compiled(
    c_encode: Callable[..., tuple[bytes, int]],
    text: str,
    enc: Encoding,
    html: bool,
    chunk: bytes,
    stop: int,
) -> bytes:
    """Go on where the compiled encoder stopped: Big5's astral code points and, in fatal
    mode, the first error."""
    table = encoder_table(enc.name)
    kind = _kind(enc.name)
    big5 = enc.name == "Big5"
    parts = [chunk]
    n = len(text)
    while stop < n:
        cp = ord(text[stop])
        packed = big5_astral().get(cp) if big5 else None
        if packed is not None:
            parts.append(_bytes_of(packed))
        elif html:
            parts.append(_html(_scalar(cp)))
        else:
            raise _error(enc, text, stop)
        chunk, stop = c_encode(text, stop + 1, table, kind, html, big5)
        parts.append(chunk)
    return b"".join(parts)


def encode_python(text: str, encoding: Encoding | str, errors: ErrorMode = "html") -> bytes:
    """:func:`encode` for the table encoders without the compiled extension."""
    enc = get_encoding(encoding)
    name = enc.name
    if name == "ISO-2022-JP":
        return _encode_iso_2022_jp(text, enc, errors)
    table = encoder_table(name)
    gb18030 = name == "gb18030"
    astral = big5_astral() if name == "Big5" else {}
    out = bytearray()
    for pos, char in enumerate(text):
        cp = _scalar(ord(char))
        if cp < 0x80:
            out.append(cp)
            continue
        if cp < 0x10000:
            packed = table[cp]
        elif gb18030:
            packed = _four_bytes(cp - 0x10000 + 189000)
        else:
            packed = astral.get(cp, 0)
        if packed:
            out += _bytes_of(packed)
        elif errors == "html":
            out += _html(cp)
        else:
            raise _error(enc, text, pos)
    return bytes(out)


_ASCII, _ROMAN, _JIS0208 = 0, 1, 2
_ESCAPES = {_ASCII: b"\x1b(B", _ROMAN: b"\x1b(J", _JIS0208: b"\x1b$B"}


def _encode_iso_2022_jp(text: str, enc: Encoding, errors: ErrorMode) -> bytes:
    """The spec's ISO-2022-JP encoder, its state machine written out."""
    table = encoder_table("ISO-2022-JP")
    out = bytearray()
    state = _ASCII
    queue = [_scalar(ord(char)) for char in reversed(text)]  # pop() reads the next one
    positions = list(range(len(text) - 1, -1, -1))  # the text position of each queued item
    while queue:
        cp = queue.pop()
        pos = positions.pop()
        if state != _JIS0208 and cp in (0x0E, 0x0F, 0x1B):
            cp = 0xFFFD  # the spec's error is U+FFFD here, not the code point
        elif state == _ASCII and cp < 0x80:
            out.append(cp)
            continue
        elif state == _ROMAN and (
            (cp < 0x80 and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)
        ):
            out.append(0x5C if cp == 0xA5 else 0x7E if cp == 0x203E else cp)
            continue
        elif cp < 0x80 or cp in (0xA5, 0x203E):
            state = _ASCII if cp < 0x80 else _ROMAN
            out += _ESCAPES[state]
            queue.append(cp)
            positions.append(pos)
            continue
        else:
            packed = table[cp] if cp < 0x10000 else 0
            if packed and state != _JIS0208:
                state = _JIS0208
                out += _ESCAPES[state]
            if packed:
                out += _bytes_of(packed)
                continue
            if state == _JIS0208:
                state = _ASCII
                out += _ESCAPES[state]
        if errors == "fatal":
            raise _error(enc, text, pos)
        # html mode: the &#N; is put back in front of the input, as ASCII code points.
        for char in reversed(f"&#{cp};"):
            queue.append(ord(char))
            positions.append(pos)
    if state != _ASCII:
        out += _ESCAPES[_ASCII]
    return bytes(out)


# The state an ISO-2022-JP chunk starts in, reached from ASCII by one character whose bytes
# (escape and character) are then cut off: Roman by U+00A5, JIS X 0208 by U+3000.
_ISO_2022_JP_LEADS = {_ROMAN: ("\xa5", 4), _JIS0208: ("\u3000", 5)}
ISO_2022_JP_END = _ESCAPES[_ASCII]


def encode_iso_2022_jp_from(
    text: str, state: int = _ASCII, errors: ErrorMode = "html"
) -> tuple[bytes, int]:
    """One chunk of a split ISO-2022-JP encode: ``text``'s bytes when the spec's encoder
    starts in ``state`` (0 ASCII, 1 Roman, 2 JIS X 0208), without the closing ``ESC ( B``,
    and the state it ends in. Chunks encoded so, each from the state the last one ended in,
    plus ``ISO_2022_JP_END`` if the last state is not ASCII, are the one-shot encode."""
    lead, cut = _ISO_2022_JP_LEADS.get(state, ("", 0))
    try:
        data = encode(lead + text, "ISO-2022-JP", errors)
    except UnicodeEncodeError as exc:
        start, end = exc.start - len(lead), exc.end - len(lead)
        raise UnicodeEncodeError(exc.encoding, text, start, end, exc.reason) from None
    if not data.endswith(ISO_2022_JP_END):
        return data[cut:], _ASCII
    # A closing ESC ( B: the state is the last escape's before it. (An escape inside the
    # output is always followed by a character, so a trailing ESC ( B is the closing one.)
    body = len(data) - 3
    last = data.rfind(b"\x1b", 0, body)
    return data[cut:body], _JIS0208 if data[last : last + 3] == _ESCAPES[_JIS0208] else _ROMAN


_COMPILED: list[ModuleType | None] = []


def _compiled() -> ModuleType | None:
    if not _COMPILED:
        try:
            from . import _speedups
        except ImportError:
            _COMPILED.append(None)
        else:
            _COMPILED.append(_speedups if hasattr(_speedups, "encode") else None)
    return _COMPILED[0]


__all__ = [
    "ErrorMode",
    "encode",
    "encode_iso_2022_jp_from",
    "encode_python",
    "encoder_table",
    "output_encoding",
]
