"""Teach libxml2 (inside lxml) a ``scrapy-charset-<name>`` codec name, at its first use.

Scrapy's ``xmliter_lxml`` (``XMLFeedSpider``'s default iterator) passes ``response.encoding``
to lxml, and libxml2 knows only its own encoding names: without an alias, an HTML response
whose ``encoding`` names the plugin's codec would make it raise ``LookupError`` where stock
Scrapy's ``"cp1252"`` works. libxml2's public ``xmlAddEncodingAlias`` maps the codec name to
the libxml2 (iconv) name of the same encoding, the first candidate libxml2 accepts; libxml2
then decodes with its own tables, as it does for stock Scrapy's names.

This runs once per encoding, when a response first names that codec (not at import), and
costs well under a millisecond. If lxml's library does not export the function, nothing is
done (the name then stays unknown to libxml2 only).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..encoding import Encoding

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


def _accepts(name: str) -> bool:
    from lxml import etree

    try:
        etree.fromstring(b"<r/>", etree.XMLParser(encoding=name))
    except LookupError:
        return False
    except Exception:  # a parse error still means the name was known
        return True
    return True


@cache
def _alias_functions() -> tuple[Any, Any] | None:
    try:
        import ctypes

        from lxml import etree

        library = ctypes.CDLL(etree.__file__)
        add, delete = library.xmlAddEncodingAlias, library.xmlDelEncodingAlias
    except (ImportError, OSError, AttributeError):
        return None
    add.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    delete.argtypes = [ctypes.c_char_p]
    return add, delete


@cache
def teach_libxml2(alias: str, encoding: Encoding) -> bool:
    """Make libxml2 accept ``alias`` as the name of ``encoding``; whether it now does."""
    if _accepts(alias):
        return True
    functions = _alias_functions()
    if functions is None:
        return False
    add, delete = functions
    for candidate in _CANDIDATES.get(encoding.name, (encoding.name,)):
        add(candidate.encode("ascii"), alias.encode("ascii"))
        if _accepts(alias):
            return True
        delete(alias.encode("ascii"))
    return False
