"""The WHATWG Encoding Standard: labels and decoders that match browsers byte for byte.

Pure Python; never imports Scrapy.
"""

from .decoders import BomMode, IncrementalDecoder, bom_sniff, decode
from .labels import (
    ALL_ENCODINGS,
    REPLACEMENT,
    UTF_8,
    UTF_16BE,
    UTF_16LE,
    WINDOWS_1252,
    X_USER_DEFINED,
    Encoding,
    get_encoding,
    lookup,
)

__all__ = [
    "ALL_ENCODINGS",
    "REPLACEMENT",
    "UTF_8",
    "UTF_16BE",
    "UTF_16LE",
    "WINDOWS_1252",
    "X_USER_DEFINED",
    "BomMode",
    "Encoding",
    "IncrementalDecoder",
    "bom_sniff",
    "decode",
    "get_encoding",
    "lookup",
]
