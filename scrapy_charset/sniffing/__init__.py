"""The HTML Standard's encoding sniffing, in browser order, with the rule that decided.

:func:`sniff` gives a :class:`Decision`; :func:`decode_html` also decodes the body exactly as
a browser does. :func:`sniff_xml` and :func:`sniff_text` do the same for XML and plain text.
Pure Python; never imports Scrapy.
"""

from .content_type import is_xml_mime_type
from .decision import Decision, Declaration, Source
from .detect import (
    DEFAULT_DETECTOR,
    ChardetngDetector,
    CharsetNormalizerDetector,
    Detector,
)
from .documents import decode_text, sniff_text, sniff_xml
from .prescan import extract_encoding_from_meta, get_attribute, get_xml_encoding, prescan
from .sniff import decode_html, sniff

__all__ = [
    "DEFAULT_DETECTOR",
    "CharsetNormalizerDetector",
    "ChardetngDetector",
    "Decision",
    "Declaration",
    "Detector",
    "Source",
    "decode_html",
    "decode_text",
    "extract_encoding_from_meta",
    "get_attribute",
    "get_xml_encoding",
    "is_xml_mime_type",
    "prescan",
    "sniff",
    "sniff_text",
    "sniff_xml",
]
