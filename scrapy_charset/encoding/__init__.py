"""The WHATWG Encoding Standard: labels, decoders and encoders that match browsers byte for byte.

Never imports Scrapy. Importing it registers the ``scrapy-charset-<name>`` Python codecs
(:mod:`.pycodecs`).
"""

from . import pycodecs
from .decoders import BomMode, IncrementalDecoder, bom_sniff, decode
from .encoders import encode, output_encoding
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
    "encode",
    "get_encoding",
    "lookup",
    "output_encoding",
]

pycodecs.register()
