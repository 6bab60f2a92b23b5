"""Teach libxml2 (inside lxml) the ``scrapy-charset-<name>`` codec names.

Scrapy's ``xmliter_lxml`` (``XMLFeedSpider``'s default iterator) passes ``response.encoding``
to lxml, and libxml2 knows only its own encoding names: without this, an HTML response whose
``encoding`` names the plugin's codec would make it raise ``LookupError`` where stock Scrapy's
``"cp1252"`` works. libxml2's public ``xmlAddEncodingAlias`` maps each codec name to the
libxml2 (iconv) name of the same encoding, the first candidate libxml2 accepts. libxml2 then
decodes with its own tables, as it does for stock Scrapy's names. If lxml's library does not
export the function, nothing is done.
"""

from __future__ import annotations

import ctypes
from functools import cache

from ..encoding import ALL_ENCODINGS, UTF_8, output_encoding
from ..encoding.pycodecs import codec_name

# Encoding Standard name -> libxml2/iconv names to try (else the standard's name itself).
_CANDIDATES: dict[str, tuple[str, ...]] = {
    "ISO-8859-8-I": ("ISO-8859-8",),
    "macintosh": ("MACINTOSH", "MAC"),
    "x-mac-cyrillic": ("MACCYRILLIC", "MAC-CYRILLIC", "CP10007"),
    "windows-874": ("CP874", "WINDOWS-874"),
    "x-user-defined": ("ISO-8859-1",),  # bytes 0x80-0xFF have no iconv equivalent
    "Shift_JIS": ("SHIFT_JIS", "CP932"),
    "EUC-KR": ("CP949", "EUC-KR"),
    "Big5": ("BIG5-HKSCS", "BIG5"),
    "GBK": ("GBK", "CP936"),
}


def _accepts(etree: object, name: str) -> bool:
    try:
        etree.fromstring(b"<r/>", etree.XMLParser(encoding=name))  # type: ignore[attr-defined]
    except LookupError:
        return False
    except Exception:  # a parse error still means the name was known
        return True
    return True


@cache
def teach_libxml2() -> int:
    """Register the aliases once; the number of codec names libxml2 now knows."""
    try:
        from lxml import etree

        library = ctypes.CDLL(etree.__file__)
        add = library.xmlAddEncodingAlias
        delete = library.xmlDelEncodingAlias
    except (ImportError, OSError, AttributeError):
        return 0
    add.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    delete.argtypes = [ctypes.c_char_p]
    taught = 0
    for encoding in ALL_ENCODINGS:
        if output_encoding(encoding) == UTF_8:
            continue  # response.encoding is Python's "utf-8", which libxml2 knows
        alias = codec_name(encoding)
        if _accepts(etree, alias):
            taught += 1
            continue
        for candidate in _CANDIDATES.get(encoding.name, (encoding.name,)):
            add(candidate.encode("ascii"), alias.encode("ascii"))
            if _accepts(etree, alias):
                taught += 1
                break
            delete(alias.encode("ascii"))
    return taught
