"""An encoding given to the response by whoever built it (``encoding=``), and the user values
and media types the middleware must read without losing a response.

The three response-building patterns of the plugins that render pages in a browser
(tests/support/rendering.py) run in real crawls against a real local server.
"""

from __future__ import annotations

import gzip
import json
import pickle
import warnings
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.http import FormRequest, Headers, HtmlResponse, Request, TextResponse, XmlResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset.encoding import lookup
from scrapy_charset.integration.response import (
    CharsetHtmlResponse,
    CharsetResponseMixin,
    explicit_encoding,
)
from tests.integration.test_middleware_support import charset_stats, middleware, stock_text
from tests.support.crawl import run_crawl
from tests.support.scrapy_compat import W3LIB_STANDARD
from tests.support.server import LocalServer, html

PRICE = "価格 1,000～2,000"  # "～" (U+FF5E) is in Windows' Shift_JIS, not in Python's shift_jis
SJIS_PAGE = (
    f'<html><head><meta charset="Shift_JIS"><title>t</title></head><body><p>{PRICE}</p>'
    "</body></html>"
)
RENDERING = "tests.support.rendering."


def crawl_rendered(middleware_name: str, content_type: str) -> tuple[dict[str, Any], Any]:
    body = SJIS_PAGE.encode("cp932")
    with LocalServer({"/ja": html(body, content_type)}) as server:
        result = run_crawl(
            "tests.support.spiders:TextSpider",
            {
                "DOWNLOADER_MIDDLEWARES": {
                    "scrapy_charset.CharsetMiddleware": 585,
                    RENDERING + middleware_name: 543,
                },
            },
            {"urls": [server.url("/ja")]},
        )
    assert len(result.items) == 1, result.log
    return result.items[0], result


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=Shift_JIS"])
def test_selenium_style_utf8_re_encoded_dom(content_type: str) -> None:
    item, result = crawl_rendered("SeleniumStyleMiddleware", content_type)
    assert item["p"] == [PRICE]
    assert item["class"] == "CharsetHtmlResponse"
    assert item["encoding"] == "utf-8"
    assert "charset:explicit" in item["flags"]
    assert result.stat("charset/explicit") == 1
    assert result.stat("charset/source/explicit") == 1


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=Shift_JIS"])
def test_playwright_style_dom_encoded_with_the_declared_codec_or_utf8(content_type: str) -> None:
    # Python's shift_jis cannot encode "～": scrapy-playwright falls back to UTF-8 while the
    # header (or the <meta>) still says Shift_JIS.
    item, result = crawl_rendered("PlaywrightStyleMiddleware", content_type)
    assert item["p"] == [PRICE]
    assert "playwright" in item["flags"] and "charset:explicit" in item["flags"]
    assert result.stat("charset/source/explicit") == 1


def test_playwright_style_legacy_codec_maps_to_the_standard_encoding() -> None:
    text = "<html><head><title>t</title></head><body><p>Crème brûlée €</p></body></html>"
    with LocalServer(
        {"/fr": html(text.encode("cp1252"), "text/html; charset=ISO-8859-1")}
    ) as server:
        result = run_crawl(
            "tests.support.spiders:TextSpider",
            {
                "DOWNLOADER_MIDDLEWARES": {
                    "scrapy_charset.CharsetMiddleware": 585,
                    RENDERING + "PlaywrightStyleMiddleware": 543,
                }
            },
            {"urls": [server.url("/fr")]},
        )
    # w3lib turns ISO-8859-1 into Python's cp1252: the Encoding Standard's windows-1252.
    (item,) = result.items
    assert item["p"] == ["Crème brûlée €"]
    assert result.stat("charset/encoding/windows-1252") == 1
    assert result.stat("charset/source/explicit") == 1


def test_zyte_api_style_subclass_passes_untouched() -> None:
    item, result = crawl_rendered("ZyteApiStyleMiddleware", "text/html; charset=Shift_JIS")
    assert item["class"] == "ZyteApiStyleResponse"
    assert item["p"] == [PRICE]  # stock Scrapy honours encoding="utf-8"
    assert result.stat("charset/skipped/type") == 1


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("SplashStyleMiddleware", "SplashStyleTextResponse"),
        ("SplashJsonStyleMiddleware", "SplashStyleJsonResponse"),
    ],
)
def test_splash_style_classes_pass_untouched(name: str, cls: str) -> None:
    body = SJIS_PAGE.encode("cp932")
    with LocalServer({"/ja": html(body, "text/html")}) as server:
        result = run_crawl(
            "tests.support.spiders:TextSpider",
            {
                "DOWNLOADER_MIDDLEWARES": {
                    "scrapy_charset.CharsetMiddleware": 585,
                    RENDERING + name: 725,
                },
                "CHARSET_RESPONSE_TYPES": "html,xml,text",
            },
            {"urls": [server.url("/ja")]},
        )
    assert len(result.items) == 1, result.log[-3000:]
    (item,) = result.items
    assert item["p"] == [PRICE]
    assert item["class"] == cls
    assert result.stat("charset/skipped/type") == 1


# -- the rules, response by response ---------------------------------------------------------


def through(response: Any, settings: dict[str, Any] | None = None) -> tuple[Any, Any]:
    mw, crawler = middleware(settings)
    request = response.request or Request(response.url)
    return mw.process_response(request, response), crawler


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("utf-8", "UTF-8"),
        ("UTF8", "UTF-8"),
        ("utf_8", "UTF-8"),
        ("cp932", "Shift_JIS"),
        ("ms932", "Shift_JIS"),
        ("shift_jis", "Shift_JIS"),
        ("latin-1", "windows-1252"),
        ("iso8859_1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("cp1251", "windows-1251"),
        ("euc_jp", "EUC-JP"),
        ("cp949", "EUC-KR"),
        ("big5hkscs", "Big5"),
        ("mac_roman", "macintosh"),
        ("koi8_r", "KOI8-R"),
        ("utf_16_le", "UTF-16LE"),
        ("gb18030", "gb18030"),
    ],
)
def test_python_codec_names_map_to_the_standard(label: str, name: str) -> None:
    assert explicit_encoding(label) == lookup(name)


UNKNOWN = ["rot13", "base64", "hex", "zlib", "uu", "undefined", "idna", "punycode", "nonsense", ""]


@pytest.mark.parametrize("label", [*UNKNOWN, "x" * 500])
def test_unknown_explicit_encodings_fall_back_to_sniffing(label: str) -> None:
    body = SJIS_PAGE.encode("cp932")
    response = HtmlResponse("http://example.jp/", body=body, encoding=label)
    new, crawler = through(response)
    assert new.text.endswith(f"<p>{PRICE}</p></body></html>")
    assert new.charset_decision.source.value == "meta"
    # The sniffed document's encoder, not the unknown label.
    assert new.encoding == "scrapy-charset-shift_jis"
    assert charset_stats(crawler)["charset/explicit/unknown"] == 1


FOREIGN = {
    "cp852": "Zażółć gęślą jaźń",
    "iso-2022-kr": "한국어 텍스트",  # a label of "replacement" in the standard
    "hz": "中文文本",  # hz-gb-2312 is one too
    "mac_greek": "Ελληνικά",
    "koi8_t": "Китобхонаи шаҳр",
    "utf-32": "Zürich 東京",
    "johab": "한국어",
}


@pytest.mark.parametrize(("label", "text"), FOREIGN.items())
def test_python_codecs_the_standard_lacks_decode_as_in_stock_scrapy(label: str, text: str) -> None:
    """The bytes were encoded with that Python codec by whoever built the response: stock
    Scrapy decodes them with it, so the response passes through untouched. (From w3lib 2.6
    on, stock Scrapy ignores a codec the standard lacks and reads the page as a browser would,
    here as the UTF-8 its <meta> says: the plugin leaves that as it is too.)"""
    body = f'<html><head><meta charset="utf-8"></head><body><p>{text}</p></body></html>'
    response = HtmlResponse("http://example.com/", body=body.encode(label), encoding=label)
    stock = HtmlResponse("http://example.com/", body=body.encode(label), encoding=label)
    expected = stock.css("p::text").get()
    assert (expected == text) is (not W3LIB_STANDARD or label == "utf-32")
    new, crawler = through(response)
    assert new is response and new.css("p::text").get() == expected
    assert charset_stats(crawler) == {"charset/skipped/explicit_codec": 1}
    # Built directly as the plugin's class (or recast with replace(encoding=...)): the same text.
    ours = CharsetHtmlResponse("http://example.com/", body=body.encode(label), encoding=label)
    assert ours.text == response.text and ours.encoding == label
    assert ours.charset_decision is None
    page = through(HtmlResponse("http://example.com/", body=b"<p>x</p>"))[0]
    recast = page.replace(body=body.encode(label), encoding=label)
    assert recast.css("p::text").get() == expected


def test_utf7_passes_through_as_stock_scrapy_reads_it() -> None:
    """w3lib does not decode UTF-7 (a script-injection risk); whatever stock Scrapy reads, the
    plugin does not change it."""
    response = HtmlResponse(
        "http://example.com/", body="<p>Zürich</p>".encode("utf-7"), encoding="utf-7"
    )
    new, crawler = through(response)
    assert new is response
    assert charset_stats(crawler) == {"charset/skipped/explicit_codec": 1}


@pytest.mark.parametrize("label", ["utf_8_sig", "euc_kr", "iso8859_15", "mac_roman", "koi8_u"])
def test_python_spellings_of_standard_encodings_decide(label: str) -> None:
    assert explicit_encoding(label) is not None
    text = "Zürich €"
    body = f"<p>{text}</p>".encode(label, "xmlcharrefreplace")
    new, _ = through(HtmlResponse("http://example.com/", body=body, encoding=label))
    assert new.charset_decision.source.value in ("explicit", "bom")


QUERY = "東京～ é€"  # "～" is A1C1 in EUC-JP to a browser; "é" is missing from the CJK ones


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("cp932", "shift_jis"),
        ("euc_jp", "euc-jp"),
        ("gbk", "gbk"),
        ("big5", "big5"),
        ("latin-1", "windows-1252"),
        ("koi8_r", "koi8-r"),
        ("utf-8", "utf-8"),
    ],
)
def test_an_explicit_encoding_encodes_urls_and_forms_like_the_declared_one(
    label: str, name: str
) -> None:
    """An explicit encoding gives the same response.encoding, follow() URL, form data and
    re-encoded text as the same page declaring that encoding in its header (whose output is
    checked against Chromium in test_chromium_urls)."""
    page = (
        '<html><body><a href="/q?w=QUERY">x</a><form action="/f"><input name="q" value="QUERY">'
        "</form></body></html>"
    ).replace("QUERY", QUERY)
    body = page.encode(lookup(name).python_codec, "xmlcharrefreplace")
    explicit, _ = through(HtmlResponse("http://example.jp/", body=body, encoding=label))
    declared, _ = through(
        HtmlResponse(
            "http://example.jp/",
            body=body,
            headers={"Content-Type": f"text/html; charset={name}"},
        )
    )
    assert explicit.charset_decision.source.value == "explicit"
    assert explicit.text == declared.text
    assert explicit.encoding == declared.encoding
    assert explicit.text.encode(explicit.encoding) == declared.text.encode(declared.encoding)
    assert explicit.follow(explicit.css("a")[0]).url == declared.follow(declared.css("a")[0]).url
    with warnings.catch_warnings():  # deprecated in Scrapy 2.19, still used
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)
        explicit_form = FormRequest.from_response(explicit)
        declared_form = FormRequest.from_response(declared)
    assert explicit_form.url == declared_form.url
    assert "%" in explicit_form.url or name == "utf-8"


def test_a_bom_beats_an_explicit_encoding_as_in_stock_scrapy() -> None:
    body = "\ufeffcafé".encode("utf-8")
    response = HtmlResponse("http://example.com/", body=body, encoding="cp1252")
    new, _ = through(response)
    assert new.text == stock_text(response) == "café"
    assert new.charset_decision.source.value == "bom"


def test_explicit_beats_a_forced_encoding() -> None:
    # The bytes were written in the explicit encoding: forcing another would garble them.
    body = SJIS_PAGE.encode("utf-8")
    response = HtmlResponse("http://example.jp/", body=body, encoding="utf-8")
    new, _ = through(response, {"CHARSET_FORCE_ENCODING": "shift_jis"})
    assert PRICE in new.text


def test_a_cached_response_encoding_that_is_only_stock_scrapys_guess_is_not_explicit() -> None:
    # Scrapy 2.19's HTTP cache stores response.encoding; the flag "cached" marks a hit.
    body = b"<html><head><title>t</title></head><body><p>caf\xe9</p></body></html>"
    headers = Headers({"Content-Type": "text/html; charset=iso-8859-2"})
    cached = HtmlResponse(
        "http://example.com/", body=body, headers=headers, encoding="iso8859-2", flags=["cached"]
    )
    new, crawler = through(cached)
    assert new.charset_decision.source.value == "header"
    assert "charset/explicit" not in charset_stats(crawler)


def test_a_cached_response_whose_stock_reading_fails_keeps_its_encoding_as_given() -> None:
    # With w3lib 2.6, stock Scrapy's reading of a body ending in "<meta" panics: it cannot
    # have stored a guess of its own, so a cached response's encoding was given.
    body = b"<html><head><title>t</title></head><body><p>caf\xe9</p><meta"
    cached = HtmlResponse("http://example.com/", body=body, encoding="cp1252", flags=["cached"])
    new, crawler = through(cached)
    # (Before w3lib 2.6, stock Scrapy's guess: taken for one, and the page sniffed.)
    assert (new.charset_decision.source.value == "explicit") is W3LIB_STANDARD
    assert new.css("p::text").get() == "café"
    assert not [key for key in charset_stats(crawler) if key.startswith("charset/error")]


class Ambiguous:
    """A value without a truth value, like a numpy array or a pandas Series."""

    def __bool__(self) -> bool:
        raise ValueError("The truth value of an array with more than one element is ambiguous")


def test_a_dont_charset_without_truth_value_does_not_cost_the_response() -> None:
    body = SJIS_PAGE.encode("cp932")
    request = Request("http://example.jp/", meta={"dont_charset": Ambiguous()})
    response = HtmlResponse(request.url, body=body, request=request)
    mw, crawler = middleware()
    assert mw.process_response(request, response) is response
    assert charset_stats(crawler)["charset/error/TypeError"] == 1


def test_a_spider_charset_enabled_without_truth_value_does_not_cost_the_response() -> None:
    import scrapy

    from tests.integration.test_middleware_support import build, make_crawler

    class Spider(scrapy.Spider):
        name = "ambiguous"
        charset_enabled = Ambiguous()

    crawler = make_crawler()
    from scrapy_charset.integration.middleware import CharsetMiddleware

    mw = build(CharsetMiddleware, crawler)
    mw._spider_opened(Spider())  # the signal handler must not raise either
    request = Request("http://example.jp/")
    response = HtmlResponse(request.url, body=SJIS_PAGE.encode("cp932"), request=request)
    assert mw.process_response(request, response) is response
    assert charset_stats(crawler)["charset/error"] == 1


def test_a_spider_charset_enabled_that_raises_costs_neither_the_crawl_nor_a_response() -> None:
    with LocalServer({"/ja": html(SJIS_PAGE.encode("cp932"), "text/html")}) as server:
        result = run_crawl(
            "tests.support.spiders:OptOutRaisesSpider",
            {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}},
            {"urls": [server.url("/ja"), server.url("/ja?2")]},
        )
    assert [item["class"] for item in result.items] == ["HtmlResponse", "HtmlResponse"]
    assert result.stat("charset/error/RuntimeError") == 2


# -- XML media types, measured in Chromium ---------------------------------------------------

DOCUMENTS = [
    json.loads(line)
    for line in gzip.open(
        Path(__file__).parents[1] / "data" / "chromium" / "documents.jsonl.gz", "rt"
    )
][1:]
XML_TYPE_DOCS = [
    d
    for d in DOCUMENTS
    if d["group"] == "xml_types" and not d["id"].startswith("type-application-rss-xml")
]


def response_of(document: dict[str, Any]) -> Any:
    import base64

    headers = Headers(document["headers"])
    body = base64.b64decode(document["body_b64"])
    url = "http://127.0.0.1/doc"
    cls = responsetypes.from_args(headers=headers, url=url, body=body)
    return cls(url=url, headers=headers, body=body, request=Request(url))


@pytest.mark.parametrize("document", XML_TYPE_DOCS, ids=lambda d: d["id"])
def test_xml_media_types_follow_the_xml_rules(document: dict[str, Any]) -> None:
    """application/xhtml+xml is an HtmlResponse in Scrapy, text/xml an XmlResponse: both are
    decoded as Chromium parses them (UTF-8 default, XML declaration, no <meta>)."""
    response = response_of(document)
    new, _ = through(response, {"CHARSET_RESPONSE_TYPES": "html,xml,text"})
    assert isinstance(new, CharsetResponseMixin)
    assert new.charset_decision.encoding == lookup(document["chromium"]["charset"])


def test_rss_is_xml_for_a_crawler() -> None:
    """Chromium shows application/rss+xml as plain text (windows-1252, recorded as
    type-application-rss-xml-*); a crawler parses a feed as XML, as the XML parsers of
    browsers (XMLHttpRequest, DOMParser) do: UTF-8 unless declared."""
    doc = next(d for d in DOCUMENTS if d["id"] == "type-application-rss-xml-meta")
    new, _ = through(response_of(doc), {"CHARSET_RESPONSE_TYPES": "html,xml"})
    assert new.charset_decision.encoding == lookup("utf-8")
    assert new.charset_decision.source.value == "default"


def test_star_star_after_the_charset_keeps_it() -> None:
    body = b'<html><head><meta charset="koi8-r"></head><body>caf\xc3\xa9</body></html>'
    headers = Headers({"Content-Type": "text/html; charset=utf-8, */*"})
    response = HtmlResponse("http://example.com/", body=body, headers=headers)
    new, _ = through(response)
    assert new.charset_decision.source.value == "header"
    assert "café" in new.text


# -- JSON --------------------------------------------------------------------------------------


def test_json_is_read_as_utf8_like_stock_scrapy_and_browsers() -> None:
    body = '{"name": "café"}'.encode()
    headers = Headers({"Content-Type": "text/plain; charset=iso-8859-1"})
    response = TextResponse("http://example.com/a.json", body=body, headers=headers)
    new, _ = through(response, {"CHARSET_RESPONSE_TYPES": "text"})
    assert type(new).__name__ == "CharsetTextResponse"
    assert new.json() == {"name": "café"}
    assert new.json() == json.loads(body)
    # A body that is not UTF-8/16/32 falls back to the text, as stock Scrapy 2.19 does.
    legacy = TextResponse("http://example.com/b.json", body='"café"'.encode("cp1252"))
    new, _ = through(legacy, {"CHARSET_RESPONSE_TYPES": "text"})
    assert new.json() == "café"


def test_json_responses_of_scrapy_2_19_pass_untouched() -> None:
    body = b'{"a": "\\u00e9"}'
    headers = Headers({"Content-Type": "application/json"})
    cls = responsetypes.from_args(headers=headers, url="http://example.com/", body=body)
    response = cls("http://example.com/", body=body, headers=headers)
    new, _ = through(response, {"CHARSET_RESPONSE_TYPES": "text"})
    if cls is TextResponse:  # Scrapy < 2.19: JSON arrives as a plain TextResponse
        assert new.json() == {"a": "é"}
    else:
        assert new is response
        assert new.json() == {"a": "é"}


def test_decision_and_options_pickle() -> None:
    response = XmlResponse("http://example.com/", body=b"<a>caf\xc3\xa9</a>")
    new, _ = through(response, {"CHARSET_RESPONSE_TYPES": "xml"})
    again = pickle.loads(pickle.dumps(new))
    assert again.text == new.text
