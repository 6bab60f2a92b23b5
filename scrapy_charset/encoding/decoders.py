"""Public decoding API: ``decode``, ``bom_sniff`` and ``IncrementalDecoder``.

Output is exactly the Encoding Standard's decoder in error mode "replacement". The spec-literal
decoders live in :mod:`.reference`; the fast paths in :mod:`.fast` lean on CPython's C codecs
only where exhaustive tests show them identical to the spec.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from . import fast
from .labels import BY_NAME, Encoding, get_encoding

BomMode: TypeAlias = Literal["sniff", "strip", "keep"]
BytesLike: TypeAlias = bytes | bytearray | memoryview

_BOM_MODES = ("sniff", "strip", "keep")
_UTF_8 = BY_NAME["UTF-8"]
_BOMS: tuple[tuple[bytes, Encoding], ...] = (
    (b"\xef\xbb\xbf", _UTF_8),
    (b"\xfe\xff", BY_NAME["UTF-16BE"]),
    (b"\xff\xfe", BY_NAME["UTF-16LE"]),
)
# TextDecoder removes a leading U+FEFF only for these ("BOM seen" in the spec's serialize).
_STRIPS_OWN_BOM = frozenset({"UTF-8", "UTF-16BE", "UTF-16LE"})


def _as_bytes(data: object) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(memoryview(data).cast("B"))
    raise TypeError(f"data must be bytes, bytearray or memoryview, not {type(data).__name__}")


def _as_encoding(encoding: object) -> Encoding:
    if not isinstance(encoding, (Encoding, str)):
        raise TypeError(
            f"encoding must be an Encoding or a label string, not {type(encoding).__name__}"
        )
    return get_encoding(encoding)


def _check_bom_mode(bom: object) -> None:
    if bom not in _BOM_MODES:
        raise ValueError(f"bom must be one of {_BOM_MODES}, not {bom!r}")


def bom_sniff(data: BytesLike) -> Encoding | None:
    """The spec's *BOM sniff*: UTF-8, UTF-16BE or UTF-16LE for a byte order mark, else None."""
    if isinstance(data, bytes):
        head = data[:3]
    elif isinstance(data, (bytearray, memoryview)):
        head = bytes(memoryview(data).cast("B")[:3])
    else:
        raise TypeError(f"data must be bytes, bytearray or memoryview, not {type(data).__name__}")
    if head[:1] not in _BOM_FIRST_BYTES:  # most bodies: one comparison
        return None
    return _BY_BOM.get(head) or _BY_BOM.get(head[:2])


_BOM_FIRST_BYTES = frozenset(mark[:1] for mark, _ in _BOMS)
_BOM_FIRST_VALUES = frozenset(mark[0] for mark, _ in _BOMS)
_BY_BOM = dict(_BOMS)


def decode_sniffing_bom(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode* of checked arguments: a BOM overrides ``encoding`` and is removed."""
    if data and data[0] in _BOM_FIRST_VALUES:  # (most bodies: no call of bom_sniff)
        bom_encoding = bom_sniff(data)
        if bom_encoding is not None:
            return decode_after_bom(data, bom_encoding)
    return fast.decode_without_bom(data, encoding)


def decode_after_bom(data: bytes, bom: Encoding) -> str:
    """The text after the BOM ``data`` starts with (``bom``, what :func:`bom_sniff` found):
    the decoders ``decode_without_bom`` uses, reading past the BOM in place (a view, not a
    copy of the body)."""
    if bom.name == "UTF-8":
        return fast.decode_utf8_from(data, 3)
    return fast.decode_utf16(memoryview(data)[2:], bom.name == "UTF-16BE")


def decode(
    data: BytesLike,
    encoding: Encoding | str,
    *,
    bom: BomMode = "sniff",
) -> str:
    """Decode ``data`` exactly as a browser does, with U+FFFD for every error.

    ``bom="sniff"`` is the spec's *decode*: a UTF-8/UTF-16LE/UTF-16BE byte order mark overrides
    ``encoding`` and is removed. ``"strip"`` is ``TextDecoder``'s default: the BOM of
    ``encoding`` itself is removed (UTF-8 and UTF-16 only). ``"keep"`` is *decode without BOM*
    (``TextDecoder`` with ``ignoreBOM``). ``encoding`` is an :class:`Encoding` or any label
    (``LookupError`` for unknown labels).
    """
    raw = _as_bytes(data)
    enc = _as_encoding(encoding)
    _check_bom_mode(bom)
    if bom == "sniff":
        return decode_sniffing_bom(raw, enc)
    text = fast.decode_without_bom(raw, enc)
    if bom == "strip" and enc.name in _STRIPS_OWN_BOM and text.startswith("\ufeff"):
        return text[1:]
    return text


class IncrementalDecoder:
    """Decode a byte stream chunk by chunk; the joined output equals one :func:`decode` call.

    Bytes that may still belong to an unfinished sequence are held back until the next chunk
    (or until ``final=True``, which also resets the decoder for a new stream).
    """

    def __init__(self, encoding: Encoding | str, *, bom: BomMode = "sniff") -> None:
        self._initial_encoding = _as_encoding(encoding)
        _check_bom_mode(bom)
        self._bom: BomMode = bom
        self.reset()

    @property
    def encoding(self) -> Encoding:
        """The encoding in use: the given one, or the one a sniffed BOM chose."""
        return self._encoding

    def reset(self) -> None:
        self._encoding = self._initial_encoding
        self._pending = b""
        self._bom_decided = self._bom != "sniff"
        self._bom_seen = False  # "strip": whether the first code point was already handled
        self._stream: fast.StreamDecoder = fast.stream_decoder(self._encoding)

    def decode(self, chunk: BytesLike = b"", final: bool = False) -> str:
        data = _as_bytes(chunk)
        if not self._bom_decided:
            data = self._pending + data
            self._pending = b""
            if not (final or _bom_decidable(data)):
                self._pending = data
                return ""
            self._bom_decided = True
            bom_encoding = bom_sniff(data)
            if bom_encoding is not None:
                self._encoding = bom_encoding
                self._stream = fast.stream_decoder(bom_encoding)
                data = data[3 if bom_encoding.name == "UTF-8" else 2 :]
        text = self._stream.decode(data, final)
        if self._bom == "strip" and not self._bom_seen and text:
            self._bom_seen = True
            if self._encoding.name in _STRIPS_OWN_BOM and text[0] == "\ufeff":
                text = text[1:]
        if final:
            self.reset()
        return text


def _bom_decidable(data: bytes) -> bool:
    """True once ``data`` either starts with a BOM or cannot be the start of one."""
    if bom_sniff(data) is not None:
        return True
    return not any(mark.startswith(data) for mark, _ in _BOMS)


__all__ = ["BomMode", "IncrementalDecoder", "bom_sniff", "decode"]
