"""CharsetMiddleware with real Scrapy objects (get_crawler, real response classes, real bytes)."""

from __future__ import annotations

import copy
import importlib
import json
import logging
import pickle
import subprocess
import sys
import warnings
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
import scrapy
from scrapy import signals
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.exceptions import NotConfigured, ScrapyDeprecationWarning
from scrapy.http import FormRequest, HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.statscollectors import DummyStatsCollector, MemoryStatsCollector
from scrapy.utils.iterators import xmliter_lxml
from scrapy.utils.python import to_unicode

from scrapy_charset.encoding import lookup
from scrapy_charset.integration import response as response_module
from scrapy_charset.integration.middleware import CharsetMiddleware, stats_counter
from scrapy_charset.integration.response import CharsetHtmlResponse, CharsetXmlResponse
from scrapy_charset.integration.settings import CharsetSettingsError
from scrapy_charset.sniffing import Source
from scrapy_charset.sniffing import detect as detect_module
from tests.integration.test_middleware_support import (
    build,
    charset_stats,
    chromium_page,
    make_crawler,
    middleware,
    response_for,
    stock_text,
)
from tests.support.scrapy_compat import W3LIB_STANDARD

LOGGER = "scrapy_charset.integration.middleware"
# The package exports a function named like the module: take the module itself.
sniff_module = importlib.import_module("scrapy_charset.sniffing.sniff")
JA = "日本語のテキスト、カタカナ「テスト」"
RU = "Съешь же ещё этих мягких французских булок, да выпей чаю"


def japanese_page() -> tuple[bytes, str]:
    source = f'<html><head><meta charset="shift_jis"><title>{JA}</title></head><p>{JA}</p>'
    return source.encode("cp932"), source


def test_meta_declared_shift_jis_page_reads_as_written() -> None:
    mw, crawler = middleware()
    body, source = japanese_page()
    request, response = response_for("http://example.com/ja", body)
    result = mw.process_response(request, response)

    assert isinstance(result, HtmlResponse)
    assert type(result) is CharsetHtmlResponse
    assert result.body is body
    assert result.text == source
    assert result.css("title::text").get() == JA
    assert result.xpath("//p/text()").get() == JA
    assert result.encoding == "scrapy-charset-shift_jis"
    assert "charset:meta" in result.flags
    decision = result.charset_decision
    assert (decision.encoding.name, decision.source, decision.label) == (
        "Shift_JIS",
        Source.META,
        "shift_jis",
    )
    # Meta holds plain values only (JSON schedulers copy it into new requests).
    record = {"encoding": "Shift_JIS", "source": "meta", "label": "shift_jis"}
    assert request.meta["charset_decision"] == record
    assert json.loads(json.dumps(request.meta))["charset_decision"] == record
    stats = charset_stats(crawler)
    assert stats["charset/source/meta"] == 1
    assert stats["charset/encoding/Shift_JIS"] == 1
    assert "charset/changed" not in stats
    # Spiders pass response.meta on to new requests, which disk queues pickle.
    assert pickle.loads(pickle.dumps(request.meta))["charset_decision"] == record


def test_windows_1252_c1_bytes_are_what_chromium_decodes() -> None:
    # Bytes 0x80-0x9F as Chromium's TextDecoder decoded them (0x81 -> U+0081, ...), where
    # Python's cp1252 (stock Scrapy) has no mapping for five of them.
    body, browser_text = chromium_page("windows-1252")
    mw, crawler = middleware()
    request, response = response_for(
        "http://example.com/", body, "text/html; charset=windows-1252"
    )
    expected_stock = stock_text(response)
    result = mw.process_response(request, response)

    assert result.text == browser_text
    if W3LIB_STANDARD:  # stock Scrapy decodes with the standard's windows-1252 too
        assert expected_stock == browser_text
        assert "charset/changed" not in charset_stats(crawler)
    else:
        assert expected_stock != browser_text and "\ufffd" in expected_stock
        assert charset_stats(crawler)["charset/changed"] == 1
    assert "charset/replacement_char" not in charset_stats(crawler)


@pytest.mark.parametrize("encoding", ["Shift_JIS", "GBK", "Big5", "EUC-KR", "EUC-JP", "KOI8-U"])
def test_legacy_pages_match_chromium(encoding: str) -> None:
    cases, browser_text = chromium_page(encoding, every=97)
    body = f"<meta charset={encoding}>\n".encode("ascii") + cases
    mw, _ = middleware()
    request, response = response_for("http://example.com/", body)
    result = mw.process_response(request, response)
    assert result.text == f"<meta charset={encoding}>\n" + browser_text
    assert request.meta["charset_decision"]["encoding"] == encoding


def test_a_response_read_before_the_middleware_gets_the_browsers_text_and_selector() -> None:
    # Taken over in place where Scrapy allows it (slotted responses): whatever Scrapy had
    # cached for the object (its own text, selector, JSON, inferred encoding) must go.
    # (A page the request forces to windows-1252, served as UTF-8: stock Scrapy's text is
    # the header's, whatever w3lib decodes with.)
    body = b'<p data-x="1">Gr\xf6\xdfe</p>'
    request, response = response_for(
        "http://example.com/", body, "text/html; charset=utf-8",
        meta={"charset_encoding": "windows-1252"},
    )  # fmt: skip
    assert response.text == '<p data-x="1">Gr\ufffd\ufffde</p>'  # stock Scrapy: UTF-8
    assert response.css("p::text").get() == "Gr\ufffd\ufffde"
    mw, crawler = middleware()
    result = mw.process_response(request, response)
    assert type(result) is CharsetHtmlResponse
    assert result.text == '<p data-x="1">Größe</p>'
    assert result.css("p::text").get() == "Größe"
    assert result.encoding == "scrapy-charset-windows-1252"
    assert result.body is body and result.flags == ["charset:forced"]
    assert result.charset_decision.source is Source.FORCED
    if response_module.IN_PLACE:
        assert result is response  # nothing copied
    assert crawler.stats.get_value("charset/changed") == 1


@pytest.mark.parametrize("lazy", [False, True], ids=["meta refresh on", "off"])
def test_text_is_decoded_once_per_response(monkeypatch: pytest.MonkeyPatch, lazy: bool) -> None:
    calls: list[bytes] = []

    def counting(real: Any) -> Any:
        def count(body: bytes, *args: Any, **kwargs: Any) -> Any:
            calls.append(body)
            return real(body, *args, **kwargs)

        return count

    # A decided body is decoded with one of these, by the middleware where Scrapy's
    # MetaRefreshMiddleware reads the text next (it does for every HTML page by default),
    # else when the text is first wanted.
    for name in ("decode", "decode_sniffing_bom"):
        monkeypatch.setattr(sniff_module, name, counting(getattr(sniff_module, name)))
    mw, crawler = middleware({"METAREFRESH_ENABLED": False} if lazy else None)
    body, _ = japanese_page()
    request, response = response_for("http://example.com/", body)
    result = mw.process_response(request, response)
    seen = (result.encoding, result.charset_decision, result.body, result.meta)
    assert seen[0].endswith("shift_jis")
    assert calls == ([] if lazy else [body])  # (urljoin would need it: the <base href>)
    result.text, result.css("p"), result.xpath("//title"), result.encoding, result.urljoin("x")
    result.follow("/next?q=x")
    assert calls == [body]
    assert charset_stats(crawler)["charset/source/meta"] == 1


def test_undeclared_utf8_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Checking that the body is UTF-8 gives the text: no second decode, none for the stats.
    decodes: list[bytes] = []
    checks: list[bytes] = []
    real_decode, real_check = sniff_module.decode, sniff_module.utf8_text
    monkeypatch.setattr(
        sniff_module, "decode", lambda b, *a, **k: decodes.append(b) or real_decode(b, *a, **k)
    )
    monkeypatch.setattr(sniff_module, "utf8_text", lambda b: checks.append(b) or real_check(b))
    monkeypatch.setattr(detect_module, "is_utf8", lambda b: pytest.fail("validated twice"))
    mw, crawler = middleware()
    body = f"<html><head><meta name=viewport content=x><title>{JA}</title></head>".encode()
    request, response = response_for("http://example.com/", body)
    result = mw.process_response(request, response)
    assert result.text == body.decode()
    assert request.meta["charset_decision"]["source"] == "utf8"
    assert (decodes, checks) == ([], [body])
    assert "charset/changed" not in charset_stats(crawler)


@pytest.mark.parametrize("lazy", [False, True], ids=["meta refresh on", "off"])
def test_stats_count_changed_replacement_and_unchanged_pages(lazy: bool) -> None:
    mw, crawler = middleware({"METAREFRESH_ENABLED": False} if lazy else None)
    pages = [
        # stock Scrapy agrees: UTF-8 declared in the header
        ("text/html; charset=utf-8", "<p>ok ünïcödé</p>".encode()),
        # forced by the request (charset_encoding): stock Scrapy reads the header's UTF-8
        ("text/html; charset=utf-8", "<p>“quoted” ünïcödé</p>".encode(), "windows-1252"),
        # broken UTF-8 byte: both give U+FFFD
        ("text/html; charset=utf-8", b"<p>bad \xff byte</p>"),
    ]
    results = []
    for content_type, body, *forced in pages:
        meta = {"charset_encoding": forced[0]} if forced else None
        request, response = response_for("http://example.com/", body, content_type, meta=meta)
        results.append(mw.process_response(request, response))
    stats = charset_stats(crawler)
    # What is said of the text is counted when it is decoded: at once where Scrapy's
    # MetaRefreshMiddleware reads it next, else when it is first read (a spider that reads
    # only the body never decodes it).
    said = {"charset/changed", "charset/replacement_char"} & set(stats)
    assert said == (set() if lazy else {"charset/changed", "charset/replacement_char"})
    for result in results:
        result.text, result.text, result.css("p")
    stats = charset_stats(crawler)
    assert stats["charset/changed"] == 1
    assert stats["charset/replacement_char"] == 1
    assert stats["charset/source/header"] == 2
    assert stats["charset/source/forced"] == 1
    assert stats["charset/encoding/UTF-8"] == 2
    assert stats["charset/encoding/windows-1252"] == 1


def test_conflicts_are_counted_and_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    mw, crawler = middleware()
    body = "<meta charset=utf-8><p>café</p>".encode("cp1252")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        for _ in range(3):
            request, response = response_for(
                "http://example.com/", body, "text/html; charset=windows-1252"
            )
            result = mw.process_response(request, response)
            assert result.css("p::text").get() == "café"
    assert charset_stats(crawler)["charset/conflict"] == 3
    records = [r for r in caplog.records if r.name == LOGGER]
    assert len(records) == 1 and "Conflicting" in records[0].getMessage()


def test_unknown_labels_are_counted() -> None:
    mw, crawler = middleware()
    request, response = response_for(
        "http://example.com/", b"<meta charset=no-such-thing><p>x", "text/html; charset=bogus"
    )
    mw.process_response(request, response)
    stats = charset_stats(crawler)
    assert stats["charset/unknown_label"] == 1
    assert "charset/conflict" not in stats


def test_meta_forced_encoding_wins_and_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    mw, crawler = middleware()
    source = f"<meta charset=windows-1251><p>{RU}</p>"
    body = source.encode("koi8-r")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        for _ in range(2):
            request, response = response_for(
                "http://example.com/", body, meta={"charset_encoding": "KOI8-R"}
            )
            result = mw.process_response(request, response)
            assert result.text == source
            assert "charset:forced" in result.flags
            assert result.encoding == "scrapy-charset-koi8-r"
    assert charset_stats(crawler)["charset/forced"] == 2
    assert "charset/conflict" not in charset_stats(crawler)  # overruled on purpose
    assert len([r for r in caplog.records if "Forced" in r.getMessage()]) == 1


def test_setting_forced_encoding_applies_to_every_response() -> None:
    mw, crawler = middleware({"CHARSET_FORCE_ENCODING": "windows-1251"})
    body = f"<p>{RU}</p>".encode("cp1251")
    request, response = response_for("http://example.com/", body, "text/html; charset=utf-8")
    result = mw.process_response(request, response)
    assert result.css("p::text").get() == RU
    assert request.meta["charset_decision"]["source"] == "forced"


def test_invalid_forced_label_is_ignored_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    mw, crawler = middleware()
    body = f"<meta charset=windows-1251><p>{RU}</p>".encode("cp1251")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        for label in ("utf-7", "utf-7", 42):
            request, response = response_for(
                "http://example.com/", body, meta={"charset_encoding": label}
            )
            assert mw.process_response(request, response).css("p::text").get() == RU
    assert charset_stats(crawler)["charset/forced/invalid"] == 3
    assert "charset/forced" not in charset_stats(crawler)
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


@pytest.mark.parametrize("label", ["replacement", "iso-2022-kr", "HZ-GB-2312", "csiso2022kr"])
def test_a_replacement_label_is_forced_nowhere(label: str) -> None:
    # The replacement encoding reads any page as one U+FFFD (no text, no links): as a setting
    # it stops the crawl at start-up, as a meta key it is ignored like an unknown label.
    with pytest.raises(CharsetSettingsError) as info:
        middleware({"CHARSET_FORCE_ENCODING": label})
    assert "replacement encoding" in str(info.value)
    mw, crawler = middleware()
    body = b"<meta charset=windows-1251><p>" + RU.encode("cp1251") + b"</p><a href='/n'>n</a>"
    request, response = response_for("http://example.com/", body, meta={"charset_encoding": label})
    result = mw.process_response(request, response)
    assert result.css("p::text").get() == RU and result.css("a::attr(href)").get() == "/n"
    assert charset_stats(crawler)["charset/forced/invalid"] == 1


OPT_OUT = {"dont_charset": True}


def _binary_response() -> tuple[Any, Response]:
    request, _ = response_for("http://example.com/a.png", b"")
    return request, Response("http://example.com/a.png", body=b"\x89PNG\r\n", request=request)


@pytest.mark.parametrize(
    ("reason", "make"),
    [
        ("dont_charset", lambda: response_for("http://x.com/", b"<p>\xe9", meta=OPT_OUT)),
        ("head", lambda: response_for("http://x.com/", b"", method="HEAD")),
        ("not_modified", lambda: response_for("http://x.com/", b"<p>\xe9", status=304)),
        ("redirect", lambda: response_for("http://x.com/", b"<p>moved\xe9", status=302)),
        ("empty", lambda: response_for("http://x.com/", b"")),
        ("type", lambda: response_for("http://x.com/", b"<?xml version='1.0'?><a/>", "text/xml")),
        ("type", lambda: response_for("http://x.com/", b"caf\xe9", "text/plain")),
        ("type", _binary_response),
    ],
)  # fmt: skip
def test_responses_passed_through_untouched(reason: str, make: Any) -> None:
    mw, crawler = middleware()
    request, response = make()
    request.meta["charset_decision"] = "left over from a redirected request"
    assert mw.process_response(request, response) is response
    assert charset_stats(crawler) == {f"charset/skipped/{reason}": 1}
    assert "charset_decision" not in request.meta


def test_foreign_htmlresponse_subclasses_and_own_responses_pass_through() -> None:
    class PluginResponse(HtmlResponse):
        pass

    mw, crawler = middleware()
    request, _ = response_for("http://x.com/", b"")
    plugin = PluginResponse("http://x.com/", body=b"<p>\xe9", request=request)
    assert mw.process_response(request, plugin) is plugin
    request, response = response_for("http://x.com/", b"<p>\xe9")
    once = mw.process_response(request, response)
    assert mw.process_response(request, once) is once
    stats = charset_stats(crawler)
    assert stats["charset/skipped/type"] == 1
    assert sum(v for k, v in stats.items() if k.startswith("charset/source/")) == 1


class ExplodingDetector:
    def detect(self, data: bytes, *, tld: str | None) -> None:
        raise RuntimeError("detector failure")


def test_internal_error_leaves_the_response_as_scrapy_made_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mw, crawler = middleware(
        {"CHARSET_DETECTOR": "tests.integration.test_middleware:ExplodingDetector"}
    )
    body = f"<p>{RU}</p>".encode("cp1251")  # undeclared and not UTF-8: the detector runs
    with caplog.at_level(logging.INFO, logger=LOGGER):
        for _ in range(2):
            request, response = response_for(
                "http://example.com/", body, meta={"charset_decision": "from a redirect"}
            )
            result = mw.process_response(request, response)
            assert result is response and type(result) is HtmlResponse
            assert result.text == stock_text(response)
            assert "charset_decision" not in request.meta
    stats = charset_stats(crawler)
    assert stats == {"charset/error": 2, "charset/error/RuntimeError": 2}
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    # Declared pages never reach the detector and are still decoded.
    request, response = response_for("http://example.com/", body, "text/html; charset=cp1251")
    assert mw.process_response(request, response).css("p::text").get() == RU


class OddDetector:
    def detect(self, data: bytes, *, tld: str | None) -> object:
        return 42


def test_a_detector_answering_nonsense_is_an_internal_error() -> None:
    mw, crawler = middleware({"CHARSET_DETECTOR": OddDetector()})
    request, response = response_for("http://example.com/", f"<p>{RU}</p>".encode("cp1251"))
    assert mw.process_response(request, response) is response
    assert charset_stats(crawler) == {"charset/error": 1, "charset/error/TypeError": 1}


def test_forced_encoding_objects_are_the_standard_ones() -> None:
    from scrapy_charset.encoding import Encoding

    look_alike = Encoding("windows-1251", (), "", "no-such-codec", False)
    made_up = Encoding("x-made-up", (), "", "no-such-codec", False)
    mw, crawler = middleware()
    body = f"<p>{RU}</p>".encode("cp1251")
    for forced in (look_alike, made_up):
        request, response = response_for("http://x.com/", body, meta={"charset_encoding": forced})
        assert mw.process_response(request, response).css("p::text").get() == RU
    stats = charset_stats(crawler)
    assert stats["charset/forced"] == 1 and stats["charset/forced/invalid"] == 1


def test_disabled_by_setting_or_custom_settings() -> None:
    with pytest.raises(NotConfigured):
        middleware({"CHARSET_ENABLED": False})
    with pytest.raises(NotConfigured):
        middleware({"CHARSET_ENABLED": "False"})

    class OptedOut(scrapy.Spider):
        name = "opted_out"
        custom_settings = {"CHARSET_ENABLED": False}

    with pytest.raises(NotConfigured):
        build(CharsetMiddleware, make_crawler(spidercls=OptedOut))


def test_spider_attribute_opts_out() -> None:
    class Plain(scrapy.Spider):
        name = "plain"
        charset_enabled = False

    crawler = make_crawler(spidercls=Plain)
    mw = build(CharsetMiddleware, crawler)
    spider = Plain.from_crawler(crawler)
    crawler.signals.send_catch_log(signals.spider_opened, spider=spider)
    request, response = response_for("http://x.com/", b"<p>\xe9")
    assert mw.process_response(request, response) is response
    assert charset_stats(crawler) == {"charset/skipped/spider": 1}


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [(b"\xff\xfe", "utf-16-le", "utf-16le"), (b"\xfe\xff", "utf-16-be", "utf-16be")],
)
def test_utf16_page_decodes_with_its_encoding_and_writes_utf8_urls(
    bom: bytes, codec: str, name: str
) -> None:
    # A UTF-16 page's encoding decodes its body as UTF-16 (as stock Scrapy's utf-16-le does)
    # and encodes as UTF-8, the Encoding Standard's output encoding: its links, forms and
    # follow() query strings are UTF-8, as a browser sends them.
    mw, _ = middleware()
    form = f"<form action='/f'><input name='q' value='{JA}'></form>"
    source = f"<p>{JA}</p><a href='/s?q={JA}'>x</a>{form}"
    request, response = response_for("http://x.com/", bom + source.encode(codec))
    result = mw.process_response(request, response)
    assert result.text == source
    assert result.encoding == "scrapy-charset-" + name
    assert result.body.decode(result.encoding) == "\ufeff" + source
    assert to_unicode(result.body, result.encoding) == "\ufeff" + source
    assert JA.encode(result.encoding) == JA.encode("utf-8")
    query = "q=" + quote(JA.encode("utf-8"))
    assert LinkExtractor().extract_links(result)[0].url == "http://x.com/s?" + query
    assert result.follow(f"/s?q={JA}").url == "http://x.com/s?" + query
    assert result.follow(f"/s?q={JA}", encoding=result.encoding).url == "http://x.com/s?" + query
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)  # (Scrapy 2.19)
        form = FormRequest.from_response(result)
    assert form.url == "http://x.com/f?" + query
    # A body replaced by text is written in UTF-8 and read back as written.
    copy = result.replace(body=f"<p>{RU}</p>")
    assert (copy.body, copy.text) == (f"<p>{RU}</p>".encode(), f"<p>{RU}</p>")


def test_follow_links_and_forms_use_the_document_encoding() -> None:
    mw, _ = middleware()
    source = (
        f"<meta charset=shift_jis><a href='/s?q={JA}'>{JA}</a>"
        "<form action='/search' method='post'><input name='q'></form>"
    )
    request, response = response_for("http://x.com/page", source.encode("cp932"))
    result = mw.process_response(request, response)
    sjis = quote(JA.encode("cp932"))
    assert result.follow(f"/s?q={JA}").url == f"http://x.com/s?q={sjis}"
    assert LinkExtractor().extract_links(result)[0].url == f"http://x.com/s?q={sjis}"
    with warnings.catch_warnings():
        # Scrapy 2.19 deprecates from_response() (in favour of form2request); it still uses
        # response.encoding, which is what this checks.
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)
        form = FormRequest.from_response(result, formdata={"q": JA})
    assert form.body == f"q={quote_plus(JA.encode('cp932'))}".encode("ascii")


def test_replace_with_new_body_decodes_it_the_browser_way() -> None:
    mw, _ = middleware()
    body, source = japanese_page()
    request, response = response_for("http://x.com/", body)
    result = mw.process_response(request, response)

    moved = result.replace(url="http://x.com/other")
    assert moved.text == source and type(moved) is CharsetHtmlResponse

    russian = f"<meta charset=koi8-r><p>{RU}</p>"
    other = result.replace(body=russian.encode("koi8-r"))
    assert isinstance(other, HtmlResponse)
    assert other.text == russian and other.encoding == "scrapy-charset-koi8-r"
    assert other.charset_decision.source is Source.META

    as_str = result.replace(body=f"<p>{JA}</p>")
    assert as_str.body == f"<p>{JA}</p>".encode("cp932")
    assert as_str.text == f"<p>{JA}</p>"

    explicit = result.replace(body=f"<p>{RU}</p>".encode("cp1251"), encoding="windows-1251")
    assert explicit.text == f"<p>{RU}</p>"
    assert explicit.encoding == "scrapy-charset-windows-1251"  # the explicit encoding's encoder


def test_response_built_directly_decodes_lazily() -> None:
    body, source = japanese_page()
    response = CharsetHtmlResponse("http://x.com/", body=body)
    assert response.encoding == "scrapy-charset-shift_jis" and response.text == source
    assert response.charset_decision.source is Source.META


def test_item_loaders_read_the_browser_text() -> None:
    from itemloaders.processors import TakeFirst
    from scrapy.loader import ItemLoader

    mw, _ = middleware()
    body, _ = japanese_page()
    request, response = response_for("http://x.com/", body)
    loader = ItemLoader(item={}, response=mw.process_response(request, response))
    loader.default_output_processor = TakeFirst()
    loader.add_css("title", "title::text")
    loader.add_xpath("p", "//p/text()")
    assert loader.load_item() == {"title": JA, "p": JA}


def test_json_reads_the_browser_text() -> None:
    mw, _ = middleware()
    body = f'{{"name": "{JA}"}}'.encode("cp932")
    request, response = response_for("http://x.com/", body, "text/html; charset=shift_jis")
    assert mw.process_response(request, response).json() == {"name": JA}


@pytest.mark.parametrize(
    ("label", "codec", "text"),
    [
        ("windows-1251", "cp1251", RU),
        ("shift_jis", "cp932", JA),
        ("gb18030", "gb18030", "中文"),
        ("big5", "big5", "中文字"),
        ("euc-jp", "euc_jp", JA),
        ("windows-1252", "cp1252", "caf\u00e9"),
    ],
)
def test_xmliter_lxml_reads_html_responses(label: str, codec: str, text: str) -> None:
    # XMLFeedSpider's default iterator hands response.encoding to libxml2, which must know the
    # plugin's codec name; where stock Scrapy's name works too, both read the same.
    body = f'<rss><item><t>{text}</t></item><meta charset="{label}"/></rss>'.encode(codec)
    ours = CharsetHtmlResponse("http://x.com/feed", body=body)
    assert ours.encoding.startswith("scrapy-charset-")
    got = [node.get() for node in xmliter_lxml(ours, "t")]
    assert got == [f"<t>{text}</t>"]
    try:
        stock = [node.get() for node in xmliter_lxml(HtmlResponse("http://x.com/", body=body), "t")]
    except LookupError:  # libxml2 does not know Python's "euc_jp"
        return
    assert stock == got


def test_libxml2_learns_a_codec_name_at_its_first_use_not_at_import() -> None:
    # The alias is registered when a response first names the codec: importing the plugin
    # (every Scrapy process with the add-on) does not touch libxml2.
    script = """
import lxml.etree as etree
from scrapy_charset.integration.response import CharsetHtmlResponse

def known(name):
    try:
        etree.fromstring(b"<r/>", etree.XMLParser(encoding=name))
    except LookupError:
        return False
    return True

before = known("scrapy-charset-euc-jp")
name = CharsetHtmlResponse("http://x.com/", body=b'<meta charset="euc-jp">').encoding
print(before, name, known(name), known("scrapy-charset-big5"))
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "scrapy-charset-euc-jp", "True", "False"]


def test_xml_and_plain_text_only_when_asked() -> None:
    mw, crawler = middleware({"CHARSET_RESPONSE_TYPES": "html, xml, text"})
    xml = f"<?xml version='1.0' encoding='windows-1251'?><r>{RU}</r>"
    request, response = response_for("http://x.com/feed", xml.encode("cp1251"), "text/xml")
    result = mw.process_response(request, response)
    assert type(result) is CharsetXmlResponse and isinstance(result, XmlResponse)
    assert result.xpath("//r/text()").get() == RU
    assert request.meta["charset_decision"]["source"] == "xml_declaration"
    # XML tools hand response.encoding to libxml2: a name it knows, as stock Scrapy's.
    assert result.encoding == "cp1251"
    assert [node.get() for node in xmliter_lxml(result, "r")] == [f"<r>{RU}</r>"]

    # An XML document without any declaration is UTF-8, never guessed.
    request, response = response_for("http://x.com/f2", b"<r>caf\xe9</r>", "application/xml")
    assert mw.process_response(request, response).text == "<r>caf\ufffd</r>"

    text = f"{RU}\n<meta charset=koi8-r>"
    request, response = response_for("http://x.com/a.txt", text.encode("cp1251"), "text/plain")
    result = mw.process_response(request, response)
    assert isinstance(result, TextResponse) and result.text == text
    assert request.meta["charset_decision"]["source"] == "detection"
    assert charset_stats(crawler)["charset/source/xml_declaration"] == 1


def test_detector_none_falls_back_to_the_tld_default() -> None:
    mw, _ = middleware({"CHARSET_DETECTOR": "none"})
    body = f"<p>{RU}</p>".encode("cp1251")
    request, response = response_for("http://example.ru/", body)
    assert mw.process_response(request, response).css("p::text").get() == RU
    assert request.meta["charset_decision"]["source"] == "tld"
    request, response = response_for("http://example.com/", body)
    mw.process_response(request, response)
    assert request.meta["charset_decision"]["encoding"] == lookup("windows-1252").name


def test_tld_hint_can_be_turned_off() -> None:
    mw, _ = middleware({"CHARSET_DETECTOR": "none", "CHARSET_TLD_HINT": False})
    request, response = response_for("http://example.ru/", "<p>ё".encode("cp1251"))
    mw.process_response(request, response)
    assert request.meta["charset_decision"]["source"] == "default"


def test_no_deprecation_warning_from_the_middleware_manager() -> None:
    crawler = make_crawler(
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        manager = build(DownloaderMiddlewareManager, crawler)
    names = [type(mw).__name__ for mw in manager.middlewares]
    position = names.index("CharsetMiddleware")
    assert names[position - 1] == "MetaRefreshMiddleware"
    assert names[position + 1] == "HttpCompressionMiddleware"


def test_follow_writes_characters_the_page_encoding_lacks_as_a_browser_does() -> None:
    # A windows-1252 page linking to a query with a CJK character (a character reference in
    # the href): stock Scrapy raises UnicodeEncodeError; a browser sends "&#20013;"
    # percent-encoded in the query, and UTF-8 in the path and fragment (URL Standard). The
    # expected URLs are what Chromium 156 gives as these links' href.
    mw, _ = middleware()
    body = b"<meta charset=windows-1252><a href='/p&#x4E2D;?q=\xe9&#x4E2D;&x=1#&#x4E2D;'>x</a>"
    request, response = response_for("http://x.com/", body)
    result = mw.process_response(request, response)
    expected = "http://x.com/p%E4%B8%AD?q=%E9%26%2320013%3B&x=1#%E4%B8%AD"
    assert result.follow(result.css("a")[0]).url == expected
    assert result.follow(result.css("a::attr(href)")[0]).url == expected
    assert result.follow(result.css("a::attr(href)").get()).url == expected
    assert [r.url for r in result.follow_all(css="a")] == [expected]
    # Encodable characters are unchanged: windows-1252 bytes, as before.
    assert result.follow("/s?q=\xe9").url == "http://x.com/s?q=%E9"
    with pytest.raises(UnicodeEncodeError):
        HtmlResponse("http://x.com/", body=body).follow("/s?q=\u4e2d")  # stock Scrapy
    # Shift_JIS has the CJK character but not "é".
    sjis = "<meta charset=shift_jis><a href='/p?q=&#xe9;&#x4E2D;'>x</a>".encode("cp932")
    request, response = response_for("http://x.com/", sjis)
    result = mw.process_response(request, response)
    assert result.follow(result.css("a")[0]).url == "http://x.com/p?q=%26%23233%3B%92%86"


def test_a_copied_decision_is_dropped_before_download_and_on_failure() -> None:
    # meta=dict(response.meta), RetryMiddleware and MetaRefreshMiddleware copy the previous
    # page's decision into a new request: neither its errback nor its callback may see it.
    mw, crawler = middleware()
    copied = {"encoding": "Shift_JIS", "source": "meta", "label": "shift_jis"}
    request = scrapy.Request("http://x.com/next", meta={"charset_decision": dict(copied), "k": 1})
    assert mw.process_request(request) is None
    assert request.meta == {"k": 1}
    # A request failed by an earlier middleware's process_request never reached ours.
    request = scrapy.Request("http://x.com/next", meta={"charset_decision": dict(copied)})
    assert mw.process_exception(request, ConnectionRefusedError()) is None
    assert "charset_decision" not in request.meta
    assert charset_stats(crawler) == {}


def test_the_decision_in_meta_is_the_responses_own() -> None:
    mw, _ = middleware()
    body = f"<meta charset=windows-1251><p>{RU}</p>".encode("cp1251")
    previous = {"encoding": "Shift_JIS", "source": "meta", "label": "shift_jis"}
    request, response = response_for("http://x.com/", body, meta={"charset_decision": previous})
    mw.process_request(request)
    result = mw.process_response(request, response)
    assert request.meta["charset_decision"] == result.charset_decision.as_record() == {
        "encoding": "windows-1251",
        "source": "meta",
        "label": "windows-1251",
    }


@pytest.mark.parametrize(
    ("label", "body", "changed"),
    [
        # Python's cp1252 has no 0x81 (stock: U+FFFD), the browser's windows-1252 keeps it
        # (as w3lib does from 2.6 on).
        ("cp1252", b"<p>Gr\xf6\xdfe \x81</p>", not W3LIB_STANDARD),
        ("cp1252", b"<p>Gr\xf6\xdfe</p>", False),
        ("utf-8", "<p>日本語</p>".encode(), False),
        # A BOM wins over the explicit encoding in stock Scrapy and in the plugin alike.
        ("cp1252", b"\xef\xbb\xbf<p>\xc3\xa9</p>", False),
    ],
)
def test_explicit_encoding_changed_stat_costs_no_second_decode(
    monkeypatch: pytest.MonkeyPatch, label: str, body: bytes, changed: bool
) -> None:
    # The charset/changed statistic is judged from the codecs and the bytes: decoding the body
    # again the stock way would cost as much as the text itself.
    import w3lib.encoding

    from scrapy_charset.integration import middleware as middleware_module

    def again(*args: Any, **kwargs: Any) -> Any:
        pytest.fail("decoded again for a statistic")

    monkeypatch.setattr(w3lib.encoding, "html_to_unicode", again)
    monkeypatch.setattr(middleware_module, "html_to_unicode", again, raising=False)
    mw, crawler = middleware()
    request = scrapy.Request("http://example.com/")
    response = HtmlResponse("http://example.com/", body=body, encoding=label, request=request)
    result = mw.process_response(request, response)
    assert result.charset_decision.source in (Source.EXPLICIT, Source.BOM)
    monkeypatch.undo()
    stock = HtmlResponse("http://example.com/", body=body, encoding=label).text
    assert (result.text != stock) is changed
    assert ("charset/changed" in charset_stats(crawler)) is changed


def test_the_in_place_take_over_is_on_exactly_where_scrapy_has_every_slot_it_uses() -> None:
    class Slotted:
        __slots__ = response_module.STATE_ATTRIBUTES

    class Lacking:
        __slots__ = ("_cached_ubody", "_cached_selector", "_cached_decoded_json", "_encoding")

    class WithDict:
        pass

    missing = response_module.missing_state_slots
    assert missing(Slotted) == ()
    assert missing(Lacking) == ("_cached_benc",)
    assert missing(WithDict) is None
    # The installed Scrapy: in place where nothing is missing (2.19), copied otherwise (2.11).
    assert response_module.IN_PLACE is (missing(TextResponse) == ())


def test_the_copying_take_over_gives_the_same_response(monkeypatch: pytest.MonkeyPatch) -> None:
    body = '<meta charset="windows-1251"><p>Привет \x98</p>'.encode("cp1251", "replace")
    body = body.replace(b"?", b"\x98")
    results = []
    # In place only where the installed Scrapy allows it (2.19); both ways give the same.
    for in_place in sorted({response_module.IN_PLACE, False}, reverse=True):
        monkeypatch.setattr(response_module, "IN_PLACE", in_place)
        mw, crawler = middleware()
        request, response = response_for("http://example.ru/a?b=1", body)
        response.text  # noqa: B018  # Scrapy's own text and selector cached first
        response.css("p")
        result = mw.process_response(request, response)
        assert (result is response) is in_place
        assert type(result) is CharsetHtmlResponse
        assert result.headers is response.headers and result.body is body
        assert result.request is request and result.url == response.url
        results.append(
            (
                result.text,
                result.css("p::text").get(),
                result.charset_decision,
                result.flags,
                result.encoding,
                request.meta["charset_decision"],
                charset_stats(crawler),
            )
        )
    assert results[0] == results[-1]
    assert results[0][0] == "<meta charset=\"windows-1251\"><p>Привет \x98</p>"


def test_the_stats_counter_counts_as_inc_value_does() -> None:
    _, crawler = middleware()
    stats = MemoryStatsCollector(crawler)
    inc = stats_counter(stats)
    inc("charset/a")
    inc("charset/a")
    stats.inc_value("charset/a")
    assert stats.get_value("charset/a") == 3
    stats.set_stats({"charset/a": 10})  # a new dict: counted there
    inc("charset/a")
    assert stats.get_stats() == {"charset/a": 11}
    stats.clear_stats()
    inc("charset/b")
    assert stats.get_stats() == {"charset/b": 1}


def test_the_stats_counter_reads_stats_where_inc_value_does() -> None:
    # Scrapy's own inc_value on a collector whose _stats is not its own attribute (a property,
    # a slot): counted through inc_value, which reads it there.
    _, crawler = middleware()

    class Shared(MemoryStatsCollector):
        shared: dict[str, int] = {}

        @property
        def _stats(self) -> dict[str, int]:  # type: ignore[override]
            return self.shared

        @_stats.setter
        def _stats(self, value: dict[str, int]) -> None:
            pass

    shared = Shared(crawler)
    stats_counter(shared)("charset/a", "charset/a")
    assert Shared.shared == {"charset/a": 2}


def test_the_stats_counter_calls_any_other_inc_value() -> None:
    _, crawler = middleware()
    calls = []

    class Recording(MemoryStatsCollector):
        def inc_value(self, key: str, count: int = 1, start: int = 0, spider: Any = None) -> None:
            calls.append(key)
            super().inc_value(key, count, start)

    recording = Recording(crawler)
    stats_counter(recording)("charset/x")
    assert calls == ["charset/x"] and recording.get_value("charset/x") == 1
    dummy = DummyStatsCollector(crawler)
    stats_counter(dummy)("charset/x")
    assert dummy.get_stats() == {}


# A copy made before the text is read, and whether reading only the copy's text counts the
# response's (the same text and decision: copy.copy, replace() and copy() share its count;
# deepcopy and pickle make copies of their own, which count nothing).
_COPIES: dict[str, tuple[Any, int]] = {
    "copy.copy": (copy.copy, 1),
    "copy()": (lambda response: response.copy(), 1),
    "replace(url=)": (lambda response: response.replace(url="http://example.org/"), 1),
    "replace(flags=)": (lambda response: response.replace(flags=["x"]), 1),
    "deepcopy": (copy.deepcopy, 0),
    "pickle": (lambda response: pickle.loads(pickle.dumps(response)), 0),
}


@pytest.mark.parametrize("read", ["text", "selector", *_COPIES])
def test_the_text_statistics_are_counted_once_whoever_decodes_first(read: str) -> None:
    mw, crawler = middleware({"METAREFRESH_ENABLED": False})
    body = b"<p>\x81\x93quoted\x94 \xff</p>"
    request, response = response_for("http://example.com/", body, "text/html; charset=utf-8")
    result = mw.process_response(request, response)
    assert "charset/replacement_char" not in charset_stats(crawler)
    if read in _COPIES:
        make, counted = _COPIES[read]
        other = make(result)
        assert other.text == body.decode("utf-8", "replace")
        assert other.css("p::text").get() == other.text[3:-4]
        assert charset_stats(crawler).get("charset/replacement_char", 0) == counted
    else:
        getattr(result, read)
    assert result.selector.css("p::text").get() == result.text[3:-4]
    stats = charset_stats(crawler)
    assert stats["charset/replacement_char"] == 1
    assert stats["charset/source/header"] == 1


class _FailingStats(MemoryStatsCollector):
    def inc_value(self, key: str, *args: Any, **kwargs: Any) -> None:
        if key in self.failing:
            raise ConnectionError("stats backend down")
        super().inc_value(key, *args, **kwargs)


@pytest.mark.parametrize("lazy", [False, True], ids=["meta refresh on", "off"])
def test_a_stats_collector_that_fails_never_costs_the_text(
    lazy: bool, caplog: pytest.LogCaptureFixture
) -> None:
    # Counting what is said of the text where it is read (lazy) cannot raise out of .text;
    # counting at take-over (eager) leaves the response as Scrapy made it, with no decision
    # in meta, as the error's log line says.
    settings = {"STATS_CLASS": _FailingStats, "METAREFRESH_ENABLED": not lazy}
    mw, crawler = middleware(settings)
    crawler.stats.failing = {"charset/replacement_char"}  # type: ignore[union-attr]
    request, response = response_for(
        "http://example.com/", b"<p>caf\xe9 \x81</p>", "text/html; charset=utf-8"
    )
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        result = mw.process_response(request, response)
        for _ in range(2):
            assert result.text == "<p>caf\ufffd \ufffd</p>"
    if lazy:
        assert type(result) is CharsetHtmlResponse
        assert request.meta["charset_decision"]["source"] == "header"
        assert "Could not count the statistics" in caplog.text
    else:
        assert type(result) is HtmlResponse and result is response
        assert "charset_decision" not in request.meta
        assert charset_stats(crawler)["charset/error/ConnectionError"] == 1


@pytest.mark.parametrize("lazy", [False, True], ids=["meta refresh on", "off"])
def test_statistics_of_the_text_never_cost_it(monkeypatch: pytest.MonkeyPatch, lazy: bool) -> None:
    # A comparison that fails is counted as an error of the statistics; the text is read.
    mw, crawler = middleware({"METAREFRESH_ENABLED": False} if lazy else None)
    middleware_module = importlib.import_module("scrapy_charset.integration.middleware")
    monkeypatch.setattr(middleware_module, "_changed", lambda *args: 1 / 0)
    request, response = response_for("http://example.com/", b"<p>caf\xe9</p>", "text/html")
    result = mw.process_response(request, response)
    assert type(result) is CharsetHtmlResponse
    assert result.text == "<p>café</p>"
    assert charset_stats(crawler)["charset/error/statistics"] == 1


META_REFRESH = "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware"


class _OwnMetaRefresh(MetaRefreshMiddleware):
    pass


class _NoTruth:
    def __bool__(self) -> bool:
        raise ValueError("the truth value of an array with more than one element is ambiguous")


@pytest.mark.parametrize(
    ("settings", "reads"),
    [
        ({}, True),
        ({"METAREFRESH_ENABLED": False}, False),
        ({"METAREFRESH_ENABLED": "0"}, False),
        ({"DOWNLOADER_MIDDLEWARES": {META_REFRESH: None}}, False),
        ({"DOWNLOADER_MIDDLEWARES": {META_REFRESH: None, _OwnMetaRefresh: 580}}, True),
        (
            {
                "DOWNLOADER_MIDDLEWARES": {
                    META_REFRESH: None,
                    f"{__name__}._OwnMetaRefresh": 580,
                }
            },
            True,
        ),
    ],
)
def test_whether_scrapys_meta_refresh_reads_the_text(settings: dict[str, Any], reads: bool) -> None:
    middleware_module = importlib.import_module("scrapy_charset.integration.middleware")
    assert middleware_module.meta_refresh_reads_text(make_crawler(settings).settings) is reads


@pytest.mark.parametrize(
    ("url", "meta"),
    [
        ("http://example.com/", {"dont_redirect": True}),
        ("http://example.com/", {"dont_redirect": 1}),
        ("http://example.com/", {"dont_redirect": _NoTruth()}),
        ("file:///page.html", {}),
        ("data:text/html,x", {}),
    ],
)
def test_where_meta_refresh_does_not_read_the_text_it_waits(url: str, meta: dict[str, Any]) -> None:
    # MetaRefreshMiddleware reads no text with dont_redirect or outside HTTP(S): nor does the
    # middleware, until the text is wanted (a meta value without truth costs nothing).
    mw, crawler = middleware()
    body = b"<p>caf\xe9 \x81</p>"
    request = scrapy.Request(url, meta=meta)
    response = HtmlResponse(url, body=body, headers={"Content-Type": "text/html; charset=utf-8"})
    result = mw.process_response(request, response)
    assert type(result) is CharsetHtmlResponse
    assert result._cached_ubody is None
    assert "charset/replacement_char" not in charset_stats(crawler)
    assert result.text == "<p>caf\ufffd \ufffd</p>"
    assert charset_stats(crawler)["charset/replacement_char"] == 1
