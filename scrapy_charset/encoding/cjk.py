"""Decoders for the CJK encodings (GBK, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR)."""

from __future__ import annotations

from . import reference
from .labels import Encoding


def decode(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode without BOM* for a CJK encoding (error mode replacement)."""
    return reference.decode_without_bom(data, encoding)
