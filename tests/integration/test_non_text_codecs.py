"""Labels Python knows as codecs but browsers do not: the page still gets the browser's text.

``rot13``, ``base64``, ``hex``, ``zlib``, ``bz2``, ``uu``, ``quopri``, ``undefined``,
``punycode``, ``idna`` and every other name in Python's codec registry (``encodings.aliases``
and the ``encodings`` modules) are swept as a declaration in the header, a ``<meta charset>``,
an http-equiv ``<meta>`` and an XML declaration, on HTML, XML and plain-text responses, also
with a forced encoding. Stock Scrapy's ``.text`` raises for several of them (before w3lib 2.6,
which ignores them as browsers do); the middleware
must take every response over, count no error, and give the text of the label a browser
reads (an unknown label is ignored: windows-1252 for an undeclared ASCII page).
"""

from __future__ import annotations

import codecs
import encodings
import encodings.aliases
import pkgutil

import pytest
from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from scrapy_charset.encoding import lookup
from scrapy_charset.integration.response import CharsetResponseMixin
from scrapy_charset.sniffing import decode_html, decode_text, sniff_xml
from scrapy_charset.sniffing.sniff import decode_as_decided
from tests.integration.test_middleware_support import charset_stats, middleware, response_for
from tests.support.scrapy_compat import W3LIB_STANDARD

NON_TEXT = [
    *("rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri", "undefined", "punycode", "idna")
]


def python_codec_names() -> list[str]:
    """Every name Python's codec registry resolves: aliases, their targets, the modules."""
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    modules = pkgutil.iter_modules(encodings.__path__)
    names |= {module.name for module in modules if not module.name.startswith("_")}
    found = []
    for name in sorted(names):
        try:
            codecs.lookup(name)
        except LookupError:
            continue  # modules that are no codec (aliases, mbcs off Windows, ...)
        found.append(name)
    return found


CODEC_NAMES = python_codec_names()


def test_the_sweep_covers_the_non_text_codecs() -> None:
    assert len(CODEC_NAMES) > 300
    for name in NON_TEXT:
        assert codecs.lookup(name)  # Python knows each one
        assert lookup(name) is None  # the Encoding Standard does not
    assert {"rot_13", "base64_codec", "hex_codec", "zlib_codec", "uu_codec"} <= set(CODEC_NAMES)


BODY = "<p>plain ASCII page, café 3 € – “quoted”</p>"


def pages(label: str) -> list[tuple[str, type, bytes, str]]:
    """(how it is declared, response class, body, Content-Type) for one label."""
    ascii_body = BODY.encode("cp1252")
    return [
        ("header", HtmlResponse, ascii_body, f"text/html; charset={label}"),
        ("meta", HtmlResponse, f'<meta charset="{label}">'.encode() + ascii_body, "text/html"),
        (
            "http-equiv",
            HtmlResponse,
            f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'.encode()
            + ascii_body,
            "text/html",
        ),
        (
            "xml-declaration-in-html",
            HtmlResponse,
            f'<?xml version="1.0" encoding="{label}"?>'.encode() + ascii_body,
            "text/html",
        ),
        (
            "xml-declaration",
            XmlResponse,
            f'<?xml version="1.0" encoding="{label}"?><r>caf\xe9</r>'.encode("latin-1"),
            "application/xml",
        ),
        ("xml-header", XmlResponse, b"<r>caf\xc3\xa9</r>", f"application/xml; charset={label}"),
        ("text-header", TextResponse, ascii_body, f"text/plain; charset={label}"),
    ]


def browser_text(cls: type, body: bytes, content_type: str, forced: str | None) -> str:
    """The text a browser reads (the sniffing layer's functions, which these labels reach
    only through the Encoding Standard's label table)."""
    if cls is XmlResponse:
        return decode_as_decided(body, sniff_xml(body, content_type, forced=forced))
    decode = decode_html if cls is HtmlResponse else decode_text
    return decode(body, content_type, url="http://example.com/", forced=forced)[0]


@pytest.mark.parametrize("forced", [None, "windows-1251"])
@pytest.mark.parametrize("label", CODEC_NAMES)
def test_every_python_codec_label_is_taken_over(label: str, forced: str | None) -> None:
    mw, crawler = middleware({"CHARSET_RESPONSE_TYPES": ["html", "xml", "text"]})
    meta = {"charset_encoding": forced} if forced else {}
    for where, cls, body, content_type in pages(label):
        request, response = response_for("http://example.com/", body, content_type, meta=meta)
        assert type(response) is cls
        result = mw.process_response(request, response)
        assert isinstance(result, CharsetResponseMixin), (label, where)
        assert isinstance(result, cls)
        assert result.text == browser_text(cls, body, content_type, forced), (label, where)
        assert result.body is body
    stats = charset_stats(crawler)
    assert not [key for key in stats if key.startswith("charset/error")], (label, stats)


@pytest.mark.parametrize("label", NON_TEXT)
def test_non_text_labels_read_as_windows_1252(label: str) -> None:
    # The browser does not know the label: it ignores it; this ASCII-and-cp1252 page then
    # reads as windows-1252 (HTML and plain text).
    mw, crawler = middleware({"CHARSET_RESPONSE_TYPES": ["html", "text"]})
    for where, cls, body, content_type in pages(label):
        if cls is XmlResponse:
            continue
        request, response = response_for("http://example.com/", body, content_type)
        if where in ("header", "text-header") and not W3LIB_STANDARD:
            with pytest.raises((LookupError, UnicodeError)):
                _ = response.text  # stock Scrapy cannot decode with the declared codec
        result = mw.process_response(request, response)
        assert result.text == body.decode("cp1252"), (label, where)
        assert "charset:" + request.meta["charset_decision"]["source"] in result.flags
    stats = charset_stats(crawler)
    assert "charset/error" not in stats
    # stock Scrapy's .text would have raised on the header-declared pages: that is a change.
    # (From w3lib 2.6 on, it ignores the label and guesses with charset-normalizer: unknown.)
    if W3LIB_STANDARD:
        assert stats.get("charset/changed", 0) + stats.get("charset/changed_unknown", 0) >= 2
    else:
        assert stats["charset/changed"] >= 2
