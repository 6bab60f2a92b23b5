"""Encoding sniffing for the other text documents a crawler meets: XML and plain text.

HTML has its own algorithm (:mod:`.sniff`). For these, browsers apply the same certain rules
first (a forced encoding, the BOM, the ``Content-Type`` charset), then what the document type
allows: XML its own declaration (XML 1.0 Appendix F), plain text no declaration at all.
"""

from __future__ import annotations

from ..encoding import UTF_8, Encoding
from .decision import Decision, Source
from .detect import DEFAULT_DETECTOR, Detector
from .prescan import PRESCAN_LIMIT, get_xml_encoding, utf16_xml_declaration
from .sniff import _as_bytes, certain_rules, decode_document


def sniff_xml(
    body: bytes, content_type: object = None, *, forced: Encoding | str | None = None
) -> Decision:
    """The encoding a browser uses for an XML document: the certain rules, then a BOM-less
    UTF-16 ``<?xml``, the declared ``encoding``, else UTF-8 (no ``<meta>``, no guessing)."""
    data = _as_bytes(body)
    certain = certain_rules(data, content_type, forced)
    if isinstance(certain, Decision):
        return certain
    overridden = tuple(certain)
    head = data[:PRESCAN_LIMIT]
    utf16 = utf16_xml_declaration(head)
    if utf16 is not None:
        return Decision(utf16, Source.XML_DECLARATION, None, overridden)
    declared = get_xml_encoding(head)
    if declared is not None:
        return Decision(declared[1], Source.XML_DECLARATION, declared[0], overridden)
    return Decision(UTF_8, Source.DEFAULT, None, overridden)


def sniff_text(
    body: bytes,
    content_type: object = None,
    *,
    url: str | None = None,
    forced: Encoding | str | None = None,
    detector: Detector | None = DEFAULT_DETECTOR,
    tld_hint: bool = True,
) -> Decision:
    """The encoding Chromium uses for plain text: the certain rules, then valid UTF-8,
    detection, the locale default (from the URL's TLD), else windows-1252."""
    return decode_text(
        body, content_type, url=url, forced=forced, detector=detector, tld_hint=tld_hint
    )[1]


def decode_text(
    body: bytes,
    content_type: object = None,
    *,
    url: str | None = None,
    forced: Encoding | str | None = None,
    detector: Detector | None = DEFAULT_DETECTOR,
    tld_hint: bool = True,
) -> tuple[str, Decision]:
    """The text a browser reads from a plain-text ``body``, and the decision (as
    :func:`sniff_text`); valid UTF-8 is decoded once."""
    return decode_document(body, content_type, url, forced, detector, tld_hint, False)
