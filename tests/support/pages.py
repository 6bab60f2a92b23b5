"""Undeclared HTML pages of a text in a real encoding, and whether detection reads them right
(the text the page's own encoding gives), for the detection tests."""

from __future__ import annotations

from scrapy_charset.encoding import decode, get_encoding
from scrapy_charset.sniffing import decode_html


def html_page(text: str, encoding: str) -> bytes:
    """``text`` in a paragraph of a page that declares nothing, encoded in ``encoding``."""
    return f"<html><body><p>{text}</p></body></html>".encode(get_encoding(encoding).python_codec)


def decodes_right(body: bytes, encoding: str, url: str | None = None) -> bool:
    """Whether ``decode_html`` reads ``body`` (from ``url``) as its true ``encoding`` does."""
    return decode_html(body, url=url)[0] == decode(body, get_encoding(encoding))
