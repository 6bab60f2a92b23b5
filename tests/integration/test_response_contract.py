"""Scrapy's response contract, for responses that went through the middleware: copies,
recasts, to_dict()/response_from_dict() (Scrapy's HTTP cache), pickling, JSON."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
import scrapy
from scrapy.http import Headers, HtmlResponse, Request, TextResponse, XmlResponse

from scrapy_charset.integration.middleware import CharsetMiddleware
from scrapy_charset.integration.response import (
    CharsetHtmlResponse,
    CharsetTextResponse,
    CharsetXmlResponse,
)
from tests.integration.test_middleware_support import build, make_crawler, middleware

JA = "日本語のテキスト「カタカナ」ですね。今日はいい天気です。" * 3
UNDECLARED_SJIS = f"<html><body><p>{JA}</p></body></html>".encode("cp932")
PRICE_PAGE = '<html><head><meta charset="Shift_JIS"></head><body><p>価格 1,000～2,000</p>'


def through(response: Any, settings: dict[str, Any] | None = None) -> Any:
    mw, _ = middleware(settings)
    return mw.process_response(response.request or Request(response.url), response)


def explicit_response() -> Any:
    return through(HtmlResponse("http://example.jp/", body=PRICE_PAGE.encode(), encoding="utf-8"))


@pytest.mark.parametrize(
    "copy",
    [
        lambda r: r.copy(),
        lambda r: r.replace(url="http://example.ru/other"),
        lambda r: r.replace(flags=["x"]),
        lambda r: r.replace(status=404),
        lambda r: r.replace(body=r.body),
        lambda r: pickle.loads(pickle.dumps(r)),
    ],
    ids=["copy", "url", "flags", "status", "body-bytes", "pickle"],
)
def test_copies_keep_an_explicit_encoding(copy: Any) -> None:
    response = explicit_response()
    again = copy(response)
    assert type(again) is CharsetHtmlResponse
    assert again.text == response.text
    assert "1,000～2,000" in again.text
    assert again.encoding == "utf-8"


def test_to_dict_and_response_from_dict_keep_an_explicit_encoding() -> None:
    from_dict = pytest.importorskip("scrapy.utils.response").__dict__.get("response_from_dict")
    if from_dict is None:
        pytest.skip("Scrapy < 2.19 has no to_dict()")
    response = explicit_response()
    stored = pickle.loads(pickle.dumps(response.to_dict(), protocol=4))  # as the cache does
    again = from_dict(stored)
    assert type(again) is CharsetHtmlResponse
    assert again.text == response.text
    assert again.encoding == "utf-8"


class CrawlerDetector:
    """A detector built with from_crawler that keeps its crawler (which cannot be pickled)."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlerDetector:
        return cls(crawler)

    def detect(self, data: bytes, *, tld: str | None) -> Any:
        return None


@pytest.mark.parametrize("detector", [None, f"{__name__}.CrawlerDetector"])
def test_undeclared_pages_survive_pickle_and_to_dict(detector: str | None) -> None:
    settings = {"CHARSET_DETECTOR": detector} if detector else {}
    response = through(HtmlResponse("http://example.jp/", body=UNDECLARED_SJIS), settings)
    # A copy with a new body decodes lazily, with the same options.
    lazy = response.replace(body=UNDECLARED_SJIS + b" ")
    for candidate in (response, lazy):
        again = pickle.loads(pickle.dumps(candidate))
        assert again.text.startswith(candidate.text[:20])
        if hasattr(candidate, "to_dict"):
            data = pickle.loads(pickle.dumps(candidate.to_dict()))
            assert data["charset_options"].kind == "html"


@pytest.mark.parametrize("cls", [HtmlResponse, XmlResponse, TextResponse])
def test_recast_to_scrapys_classes(cls: type) -> None:
    sjis = '<html><head><meta charset="shift_jis"></head><body><p>日本語</p></body></html>'
    response = through(HtmlResponse("http://example.jp/", body=sjis.encode("cp932")))
    recast = response.replace(cls=cls)
    assert type(recast) is cls
    assert recast.text == response.text
    assert recast.css("p::text").get() == "日本語" if cls is HtmlResponse else True
    # Byte 81 is U+0081 in windows-1252 to a browser, undefined in Python's cp1252: the recast
    # decodes with the plugin's codec, so it reads the same text.
    c1 = through(HtmlResponse("http://example.com/", body=b'<meta charset="cp1252"><p>a\x81b'))
    assert c1.text.endswith("a\x81b")
    assert c1.replace(cls=cls).text == c1.text


def test_json_of_an_xml_response_that_is_not_unicode_reads_the_text_rules() -> None:
    """JSON is no XML: a body that is not UTF-8/16/32 falls back to the plain-text rules (its
    charset, else a guess), as stock Scrapy falls back to its guess, not XML's UTF-8."""
    body = '{"message": "café"}'.encode("cp1252")
    for headers in ({"Content-Type": "application/json"}, {}):
        response = CharsetXmlResponse("http://example.com/", body=body, headers=headers)
        assert response.json() == {"message": "café"}
    declared = {"Content-Type": "application/json; charset=koi8-r"}
    response = CharsetXmlResponse("http://example.com/", body=body, headers=declared)
    assert response.json() == {"message": body[-3:-2].decode("koi8-r").join(["caf", ""])}


def test_recast_between_our_classes_uses_the_target_rules() -> None:
    body = b'<?xml version="1.0"?><a><meta charset="koi8-r"/>caf\xc3\xa9</a>'
    html = through(HtmlResponse("http://example.com/", body=body))
    assert html.charset_decision.source.value == "meta"  # HTML rules: the <meta> counts
    xml = html.replace(cls=CharsetXmlResponse)
    assert xml.charset_decision.source.value == "default"  # XML: UTF-8, no <meta>
    assert "café" in xml.text
    back = xml.replace(cls=CharsetHtmlResponse)
    assert back.charset_decision.source.value == "meta"


def test_our_classes_built_directly_use_their_own_rules() -> None:
    body = b'<a><meta charset="koi8-r"/>caf\xc3\xa9</a>'
    assert CharsetXmlResponse("http://example.com/", body=body).text == body.decode()
    assert CharsetHtmlResponse("http://example.com/", body=body).charset_decision.source == "meta"
    plain = CharsetTextResponse("http://example.com/", body=body)
    assert plain.charset_decision.source.value == "utf8"  # plain text: no <meta> either


def test_replace_url_keeps_the_text_of_a_tld_dependent_page() -> None:
    body = "Съешь же ещё этих мягких французских булок".encode("cp1251")
    mw, _ = middleware({"CHARSET_DETECTOR": "none"})
    response = mw.process_response(
        Request("http://example.ru/"), HtmlResponse("http://example.ru/", body=body)
    )
    assert response.charset_decision.source.value == "tld"
    moved = response.replace(url="http://example.com/")
    assert moved.text == response.text
    assert moved.charset_decision == response.charset_decision


@pytest.mark.parametrize("copy", ["response_from_dict", "pickle", "direct"])
def test_replace_url_before_the_text_is_read_keeps_it_too(copy: str) -> None:
    """A response not decoded yet (built directly, from the HTTP cache's dict, unpickled)
    reads the text of its own URL, whatever URL the copy gets."""
    if copy == "response_from_dict" and not hasattr(HtmlResponse, "to_dict"):
        pytest.skip("Scrapy < 2.19 has no to_dict()")
    body = "Съешь же ещё этих мягких французских булок".encode("cp1251")
    mw, _ = middleware({"CHARSET_DETECTOR": "none"})
    decoded = mw.process_response(
        Request("http://example.ru/"), HtmlResponse("http://example.ru/", body=body)
    )
    if copy == "response_from_dict":
        from scrapy.utils.response import response_from_dict

        lazy = response_from_dict(decoded.to_dict())
    elif copy == "pickle":
        lazy = pickle.loads(pickle.dumps(decoded))
    else:
        lazy = CharsetHtmlResponse(
            "http://example.ru/", body=body, charset_options=decoded.charset_options
        )
    moved = lazy.replace(url="http://example.com/")
    assert moved.text == decoded.text
    assert moved.charset_decision == decoded.charset_decision


def test_json_reads_utf8_whatever_the_charset() -> None:
    body = '{"a": "café"}'.encode()
    headers = Headers({"Content-Type": "text/html; charset=iso-8859-1"})
    response = through(HtmlResponse("http://example.com/", body=body, headers=headers))
    assert "cafÃ©" in response.text  # the browser's text of that page
    assert response.json() == {"a": "café"}  # but JSON is UTF-8, as stock Scrapy reads it


def test_middleware_with_from_crawler_detector_makes_no_unpicklable_responses() -> None:
    crawler = make_crawler({"CHARSET_DETECTOR": f"{__name__}.CrawlerDetector"})
    mw = build(CharsetMiddleware, crawler)

    class Spider(scrapy.Spider):
        name = "s"

    mw._spider_opened(Spider())
    request = Request("http://example.jp/")
    response = mw.process_response(
        request, HtmlResponse(request.url, body=UNDECLARED_SJIS, request=request)
    )
    pickle.dumps(response.replace(request=None))


SJIS_HEADER = {"Content-Type": "text/html; charset=shift_jis"}
WIN1252 = "text/xml; charset=windows-1252"
SELECTOR_PAGE = "<html><head><title>Café ☕</title></head><body><p class='t'>Größe 日本語</p>"


def selector_state(selector: Any) -> dict[str, Any]:
    """Everything a selector holds: every slot of every class, the tree as bytes and the
    document's URL and encoding."""
    from lxml import etree

    state: dict[str, Any] = {}
    for cls in type(selector).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name not in ("__weakref__", "__dict__", "root"):
                state[name] = getattr(selector, name, "<unset>")
    root = selector.root
    state["tree"] = etree.tostring(root)
    state["docinfo"] = (root.getroottree().docinfo.URL, root.getroottree().docinfo.encoding)
    return state


@pytest.mark.parametrize(
    ("body", "headers", "from_body"),
    [
        # UTF-8 whose text parsel would encode back to these very bytes: handed the body.
        (SELECTOR_PAGE.encode(), {"Content-Type": "text/html; charset=utf-8"}, True),
        (SELECTOR_PAGE.encode(), {}, True),  # undeclared valid UTF-8
        (b"\n \t" + SELECTOR_PAGE.encode() + b"\r\n\x0c", {}, True),  # ASCII whitespace
        (b"<p>plain ASCII</p>", {"Content-Type": "text/html; charset=utf-8"}, True),
        (SELECTOR_PAGE.encode() + "\ufffd".encode(), {}, False),  # a U+FFFD in the bytes
        # Whitespace str.strip() strips and bytes.strip() does not: the text's way.
        (("\u00a0" + SELECTOR_PAGE + "\u3000").encode(), {}, False),
        (b"\x1c" + SELECTOR_PAGE.encode() + b"\x1f", {}, False),
        # Not the body but the text's UTF-8 (what parsel makes of the text), where the body
        # holds no NUL and str.strip() strips ASCII whitespace only.
        (b"\x85<p>x</p>", {"Content-Type": "text/html; charset=utf-8"}, True),  # invalid
        (b"\xef\xbb\xbf" + SELECTOR_PAGE.encode(), {}, True),  # a BOM the text lacks
        (SELECTOR_PAGE.encode()[:-2] + b"\xe6\x97", {}, True),  # cut inside a character
        (SELECTOR_PAGE.encode("utf-8")[:40] + b"\xe9t\xe9", {}, True),  # windows-1252
        (SELECTOR_PAGE.encode("cp932", "replace"), SJIS_HEADER, True),
        (SELECTOR_PAGE.encode("gb18030"), {"Content-Type": "text/html; charset=gb18030"}, True),
        (b"\x1b$B" + "日本語".encode("iso-2022-jp")[3:] + b"<p>\x1b(Bx</p>", {}, True),
        # An XML declaration naming another encoding, which the UTF-8 parser overrides alike.
        (b'<?xml version="1.0" encoding="utf-16"?><r>\xe9</r>', {"Content-Type": WIN1252}, True),
        (b'<?xml version="1.0" encoding="shift_jis"?><r>\x93\xfa</r>', {}, True),
        (b"<p>a\x00b</p>\x00 ", {}, False),  # NUL bytes: stripped in another order
        (b"<p>\xe9</p>\x00", {"Content-Type": "text/html; charset=windows-1252"}, False),
        (b"<p>\xe9</p>\xa0", {"Content-Type": "text/html; charset=windows-1252"}, False),  # NBSP
        (b" \n ", {"Content-Type": "text/html; charset=utf-8"}, False),  # whitespace only
        (b"\xff\xfe" + SELECTOR_PAGE.encode("utf-16-le"), {}, False),  # 0x00 bytes
        ("\u4e2d\u6587".encode("utf-16-be"), {"Content-Type": "text/html; charset=utf-16be"}, True),
    ],
)
@pytest.mark.parametrize("cls", [HtmlResponse, XmlResponse, TextResponse])
def test_the_selector_is_scrapys_selector_of_the_text(
    monkeypatch: pytest.MonkeyPatch,
    body: bytes,
    headers: dict[str, str],
    from_body: bool,
    cls: type,
) -> None:
    import parsel.selector
    from scrapy.selector import Selector

    settings = {"CHARSET_RESPONSE_TYPES": ["html", "xml", "text"]}
    response = through(cls("http://example.com/a/", body=body, headers=headers), settings)
    assert isinstance(response, cls) and type(response) is not cls  # taken over
    expected = Selector(response)  # Scrapy's own, from the browser's text
    expected_state = selector_state(expected)
    if from_body and cls is not TextResponse:
        # Handed the body: the text is not encoded again (plain text: parsel guesses the type
        # from the start of the text, so it is always given the text).
        def encodes_again(*args: Any, **kwargs: Any) -> Any:
            pytest.fail("the text was handed to parsel")

        monkeypatch.setattr(parsel.selector, "_get_root_and_type_from_text", encodes_again)
    selector = response.selector
    monkeypatch.undo()
    assert response.selector is selector  # cached
    assert selector.response is response
    assert type(selector) is type(expected)
    assert selector_state(selector) == expected_state
    assert response.css("p::text").getall() == expected.css("p::text").getall()
    assert response.xpath("//title/text()").getall() == expected.xpath("//title/text()").getall()


def test_only_nul_bytes_decode_to_nul() -> None:
    """What the selector reads from the body (no 0x00 byte: no U+0000 in the text) holds for
    every decoder of the Encoding Standard, on bytes that cover every pair of non-zero bytes
    many times over (and their pairs of pairs, UTF-16's surrogates), and ISO-2022-JP's states
    between them."""
    import random

    from scrapy_charset.encoding import ALL_ENCODINGS, decode

    rng = random.Random(15)
    data = bytes(rng.randrange(1, 256) for _ in range(1 << 20))
    escapes = [b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B"]
    switching = b"".join(rng.choice(escapes) + data[i : i + 64] for i in range(0, len(data), 64))
    for encoding in ALL_ENCODINGS:
        if encoding.name != "replacement":  # which decodes anything to at most one U+FFFD
            assert "\x00" in decode(b"\x00\x00ab", encoding), encoding
        for body in (data, switching) if encoding.name == "ISO-2022-JP" else (data,):
            assert "\x00" not in decode(body, encoding), encoding


def test_parsel_before_1_10_is_handed_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """parsel 1.8 and 1.9 read a text that is valid JSON as JSON but a body only when its
    encoding is spelt "utf8": there the selector is always made from the text, as Scrapy's."""
    import parsel
    import parsel.selector

    from scrapy_charset.integration import response as response_module

    handed: list[str] = []
    from_text = parsel.selector._get_root_and_type_from_text

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        handed.append(text)
        return from_text(text, *args, **kwargs)

    body = SELECTOR_PAGE.encode()
    headers = {"Content-Type": "text/html; charset=utf-8"}
    for version, text_handed in (("1.9.1", True), ("1.10.0", False), (parsel.__version__, False)):
        monkeypatch.setattr(parsel, "__version__", version)
        monkeypatch.setattr(parsel.selector, "_get_root_and_type_from_text", spy)
        response_module.parsel_parses_body_as_text.cache_clear()
        handed.clear()
        response = through(HtmlResponse("http://example.com/", body=body, headers=headers))
        assert response.selector.css("p::text").get() == "Größe 日本語"
        assert bool(handed) is text_handed, version
        monkeypatch.undo()
    response_module.parsel_parses_body_as_text.cache_clear()
