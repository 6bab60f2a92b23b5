"""The HTML Standard's encoding sniffing, in browser order, with the rule that decided.

:func:`sniff` gives a :class:`Decision`; :func:`decode_html` also decodes the body exactly as
a browser does. Pure Python; never imports Scrapy.
"""

from .decision import Decision, Declaration, Source
from .detect import (
    DEFAULT_DETECTOR,
    ChardetngDetector,
    CharsetNormalizerDetector,
    Detector,
)
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
    "extract_encoding_from_meta",
    "get_attribute",
    "get_xml_encoding",
    "prescan",
    "sniff",
]
