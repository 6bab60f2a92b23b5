"""The middleware's path for certain decisions (a BOM or the Content-Type charset decides,
or a leading <meta charset> that stock Scrapy reads too) against its general path: the same
text, decision, flags, request.meta record, encoding, stats and logs on every page, whatever
the header, BOM and in-document declarations."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scrapy.http import Headers, HtmlResponse, Request, TextResponse, XmlResponse
from w3lib.encoding import read_bom

from scrapy_charset.encoding import bom_sniff, lookup
from scrapy_charset.integration import middleware as middleware_module
from scrapy_charset.integration.middleware import CharsetMiddleware
from scrapy_charset.sniffing import decode_html, decode_text
from scrapy_charset.sniffing.documents import sniff_xml
from scrapy_charset.sniffing.sniff import decode_as_decided, may_declare
from tests.integration.test_middleware_support import charset_stats, middleware
from tests.support.scrapy_compat import W3LIB_STANDARD

_BOMS = [
    b"", b"", b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00",
    b"\x00\x00\xfe\xff", b"\xef\xbb", b"\x00",
]  # fmt: skip
_LABELS = [
    "utf-8", "UTF-8", "windows-1251", "koi8-r", "shift_jis", "gbk", "euc-kr", "iso-8859-1",
    "latin1", "utf-16", "utf-16le", "x-user-defined", "bogus", "utf-7", "", "iso-2022-kr",
]  # fmt: skip
_HEADERS = [
    None, "text/html", "text/plain", "application/xhtml+xml", "text/xml", "*/*",
    *(f"text/html; charset={label}" for label in _LABELS),
    *(f'text/html; charset="{label}"' for label in _LABELS[:6]),
    "text/html; charset=utf-8, text/html", "text/html, text/plain; charset=koi8-r",
]  # fmt: skip
_HEADS = [
    b"", b"<!DOCTYPE html><html><head>", b'<meta name="viewport" content="x">',
    *(f'<meta charset="{label}">'.encode() for label in _LABELS),
    b'<meta http-equiv="Content-Type" content="text/html; CHARSET=windows-1251">',
    b"<?xml version='1.0' encoding='iso-8859-2'?>", b"<?xml version='1.0'?>",
    b"<\x00?\x00x\x00m\x00l\x00", b"\x00<\x00?\x00x", b"<!-- charset=koi8-r -->",
    b"x" * 1100, b"<title>Charset</title>", b"<META CHARSET='koi8-r' />",
    b"<script><meta charset='gbk'></script>", b"<meta charset=euc-kr>", b"<body>",
    # http-equiv's content: the plain spelling stock Scrapy is read without w3lib for, and
    # others (case, quotes, order, spaces, other content, no http-equiv, odd labels).
    *(
        f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'.encode()
        for label in ("utf-8", "koi8-r", "utf-16", "x-user-defined", "bogus", "utf-7")
    ),
    b"<META HTTP-EQUIV='content-type' CONTENT='TEXT/HTML;CHARSET=windows-1251' />",
    b'<meta content="text/html; charset=shift_jis" http-equiv="Content-Type">',
    b'<meta http-equiv="Content-Type" content="text/html; charset = gbk">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8; x=y">',
    b'<meta http-equiv="Content-Type" content="text/html">', b'<meta content="charset=gbk">',
    b'<meta http-equiv="refresh" content="0; charset=koi8-r">', b"<meta charset='utf-8' >",
    # Past 1,024 bytes (a late <meta> still in <head>), and near 4,096 (where w3lib stops).
    b"<script>" + b"var x = 1;\n" * 100 + b"</script>", b"<link rel=x>" * 250,
]  # fmt: skip
_TEXTS = ["plain ascii text", "Größe und Maß", "Съешь же ещё", "日本語のテキスト", "\ufffd x"]
_CODECS = ["utf-8", "cp1251", "cp932", "latin-1", "utf-16-le"]


@st.composite
def pages(draw: Any) -> tuple[bytes, str | list[str] | None]:
    text = draw(st.sampled_from(_TEXTS))
    content = text.encode(draw(st.sampled_from(_CODECS)), "replace")
    head = b"".join(draw(st.lists(st.sampled_from(_HEADS), max_size=4)))
    noise = draw(st.binary(max_size=4))
    body = draw(st.sampled_from(_BOMS)) + head + b"<p>" + content + noise
    values = draw(st.lists(st.sampled_from(_HEADERS), min_size=1, max_size=2))
    # No Content-Type at all rather than an empty list of values: stock Scrapy 2.11 cannot
    # even build a text response whose header holds no value (to_unicode(None) raises).
    header = [v for v in values if v is not None] or None
    return body, header


def _outcome(
    mw: CharsetMiddleware, crawler: Any, cls: type, body: bytes, header: Any, caplog: Any
) -> tuple[Any, ...]:
    headers = Headers({} if header is None else {"Content-Type": header})
    request = Request("http://example.com/page")
    response = cls("http://example.com/page", headers=headers, body=body, request=request)
    caplog.clear()
    result = mw.process_response(request, response)
    return (
        type(result),
        result.text,
        getattr(result, "charset_decision", None),
        result.flags,
        result.encoding,
        request.meta.get("charset_decision"),
        charset_stats(crawler),
        [(r.levelno, r.getMessage()) for r in caplog.records],
    )


def _general(mw: CharsetMiddleware) -> CharsetMiddleware:
    mw._certain = lambda *args: None  # type: ignore[method-assign]
    return mw


@pytest.mark.parametrize("kinds", [("html",), ("html", "text")])
@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(page=pages())
def test_certain_path_equals_the_general_path(
    kinds: tuple[str, ...], page: tuple[bytes, Any], caplog: pytest.LogCaptureFixture
) -> None:
    body, header = page
    settings = {"CHARSET_RESPONSE_TYPES": ",".join(kinds)}
    cls = HtmlResponse if len(kinds) == 1 else TextResponse
    caplog.set_level(logging.INFO)
    fast_mw, fast_crawler = middleware(settings)
    general_mw, general_crawler = middleware(settings)
    _general(general_mw)
    for _ in range(2):  # the second time from the cached plan
        fast = _outcome(fast_mw, fast_crawler, cls, body, header, caplog)
        general = _outcome(general_mw, general_crawler, cls, body, header, caplog)
        assert fast == general


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    page=pages(),
    tail=st.lists(st.sampled_from(_HEADS), max_size=3),
    noise=st.binary(),
    cut=st.integers(min_value=0, max_value=40),
)
def test_a_remembered_leading_meta_equals_the_general_path(
    page: tuple[bytes, Any],
    tail: list[bytes],
    noise: bytes,
    cut: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another page starting with the same bytes through the leading <meta> the last page
    was settled by (the plan remembers them), whatever follows, or with only some of them
    (``cut``): as the general path."""
    body, header = page
    caplog.set_level(logging.INFO)
    fast_mw, fast_crawler = middleware()
    general_mw, general_crawler = middleware()
    _general(general_mw)
    _outcome(fast_mw, fast_crawler, HtmlResponse, body, header, caplog)
    heads = [plan.last_meta[0][0] for plan in fast_mw._plans.values() if plan is not None]
    for head in filter(None, heads):
        assert body.startswith(head)
        _outcome(general_mw, general_crawler, HtmlResponse, body, header, caplog)
        for other in (head, head[: -1 - cut % len(head)]):
            other += b"".join(tail) + noise
            fast = _outcome(fast_mw, fast_crawler, HtmlResponse, other, header, caplog)
            general = _outcome(general_mw, general_crawler, HtmlResponse, other, header, caplog)
            assert fast == general


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    page=pages(),
    tail=st.lists(st.sampled_from(_HEADS), max_size=3),
    noise=st.binary(),
    cut=st.integers(min_value=0, max_value=1100),
)
def test_a_remembered_head_equals_the_general_path(
    page: tuple[bytes, Any],
    tail: list[bytes],
    noise: bytes,
    cut: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another page with the same first 1,024 bytes as the last page settled without a
    leading <meta> (the plan remembers them), whatever follows, or with only some of them
    (``cut``), or the same bytes padded past 1,024: as the general path."""
    body, header = page
    caplog.set_level(logging.INFO)
    fast_mw, fast_crawler = middleware()
    general_mw, general_crawler = middleware()
    _general(general_mw)
    for start in (body, b"<!-- charset=x -->" + body + b"x" * 1100):
        _outcome(fast_mw, fast_crawler, HtmlResponse, start, header, caplog)
        _outcome(general_mw, general_crawler, HtmlResponse, start, header, caplog)
        heads = [p.last_head[0][0] for p in fast_mw._plans.values() if p and p.last_head]
        for head in heads:
            for other in (head, head[:cut], head + b"x" * 1100):
                other += b"".join(tail) + noise
                fast = _outcome(fast_mw, fast_crawler, HtmlResponse, other, header, caplog)
                general = _outcome(general_mw, general_crawler, HtmlResponse, other, header, caplog)
                assert fast == general


def test_a_head_without_a_leading_meta_is_read_once_per_site(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Behind a header charset, pages sharing a head that declares nothing the path can read
    # first (thousands of unknown labels, a <meta> without its ">"): the general rules read
    # that head once, not once per page; a page with another head is read again.
    calls: list[bytes] = []
    certain_decision = middleware_module.certain_decision

    def counted(data: bytes, *args: Any) -> Any:
        calls.append(data)
        return certain_decision(data, *args)

    monkeypatch.setattr(middleware_module, "certain_decision", counted)
    mw, crawler = middleware()
    heads = [b"<head>" + b"<meta charset=nope>" * 100, b"<meta charset=" * 100]
    for head in heads:
        for page in range(3):
            body = head + f"<p>page {page} Größe".encode()
            request = Request("http://example.com/")
            header = "text/html; charset=utf-8"
            response = HtmlResponse(request.url, headers={"Content-Type": header}, body=body)
            assert mw.process_response(request, response).text == decode_html(body, header)[0]
    assert [data for data in calls if data] == [head[:1024] for head in heads]  # (b"": the plan's)
    assert charset_stats(crawler)["charset/unknown_label"] == 3


def test_the_certain_path_is_taken_for_bom_and_header_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not only equal: taken (a decode by the general path fails here).
    monkeypatch.setattr(
        middleware_module.CharsetMiddleware, "_decide", lambda *a: pytest.fail("general path")
    )
    mw, crawler = middleware()
    pages = [
        (b"\xef\xbb\xbfplain", "text/html"),
        (b"\xff\xfe<\x00p\x00", "text/html; charset=utf-8"),
        ("<meta charset=utf-8><p>Größe".encode(), "text/html; charset=utf-8"),
        ('<meta charset="koi8-r"><p>Größe'.encode(), "text/html; charset=utf-8"),
        ("<p>Привет".encode("cp1251"), "text/html; charset=windows-1251"),
        ('<meta charset="windows-1251"><p>Привет'.encode("cp1251"), "text/html"),
        ("<!DOCTYPE html><head><META charset='utf-8' /><p>Größe".encode(), "text/html"),
    ]
    for body, header in pages:
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": header}, body=body)
        result = mw.process_response(request, response)
        assert result.text == decode_html(body, header)[0]
    assert charset_stats(crawler)["charset/conflict"] == 2  # UTF-16LE over utf-8, koi8-r


# ASCII pieces: what can make an ASCII body declare or be detected (ESC sequences, NUL,
# "charset" and "encoding" early or late, XML declarations, "<<", <meta>), and what cannot.
_ASCII_PIECES = [
    b"<p>", b"ok ", b"<html><head>", b"<meta name=x content=y>", b"<meta charset=koi8-r>",
    b"<meta charset=bogus>", b"charset", b"ENCODING", b"<?xml version='1.0' encoding='gbk'?>",
    b"<?xml version='1.0'?>", b"<p><?xml version='1.0' encoding='utf-16'?>", b"<", b"?",
    b"\x1b$B", b"\x1b(B", b"\x1b", b"\x00", b"<\x00",
    b"<body>", b"x" * 1100, b"y" * 4000, b"<script>var a = 1;</script>", b"\n",
]  # fmt: skip


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.lists(st.sampled_from(_ASCII_PIECES), min_size=1, max_size=8).map(b"".join),
    header=st.sampled_from([None, ["text/html"], ["text/html; charset="], ["text/html; q=1"]]),
)
def test_ascii_pages_equal_the_general_path(
    body: bytes, header: Any, caplog: pytest.LogCaptureFixture
) -> None:
    fast_mw, fast_crawler = middleware()
    general_mw, general_crawler = middleware()
    _general(general_mw)
    for _ in range(2):
        fast = _outcome(fast_mw, fast_crawler, HtmlResponse, body, header, caplog)
        general = _outcome(general_mw, general_crawler, HtmlResponse, body, header, caplog)
        assert fast == general


def test_the_certain_path_is_taken_for_plain_ascii_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    # An ASCII page that declares nothing (an error page, a fragment): windows-1252 by
    # default without the general path, whatever the TLD; not where it may declare.
    decode = middleware_module.CharsetMiddleware._decide
    monkeypatch.setattr(
        middleware_module.CharsetMiddleware, "_decide", lambda *a: pytest.fail("general path")
    )
    mw, crawler = middleware()
    for url in ("http://example.com/", "http://example.ru/", "http://example.jp/"):
        for body in (b"OK", b"<html><body><p>Not found</p></body></html>", b"x" * 100_000):
            request = Request(url)
            response = HtmlResponse(url, headers={"Content-Type": "text/html"}, body=body)
            result = mw.process_response(request, response)
            assert result.text == body.decode("ascii")
            assert request.meta["charset_decision"]["source"] == "default"
    assert charset_stats(crawler)["charset/encoding/windows-1252"] == 9
    # Bodies that may declare or be detected otherwise go down the general path.
    general: list[bytes] = []

    def recorded(self: Any, body: bytes, *args: Any) -> Any:
        general.append(body)
        return decode(self, body, *args)

    monkeypatch.setattr(middleware_module.CharsetMiddleware, "_decide", recorded)
    bodies = [b"<p>\x1b$B", b"<p>charset", b"<?xml encoding='gbk'?>", b"<p>\x00", b"\xe9", b"<<"]
    for body in bodies:
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": "text/html"}, body=body)
        mw.process_response(request, response)
    assert general == bodies


def test_stock_codec_of_each_bom_is_w3libs() -> None:
    # The middleware's table of the standard's BOMs, by their first byte: each BOM, its
    # encoding as bom_sniff reads it, and what stock Scrapy reads it as; FF FE 00 00 (read
    # as UTF-32LE by w3lib, as UTF-16LE by browsers) is told apart in the path itself.
    marks = {b"\xef\xbb\xbf": "UTF-8", b"\xfe\xff": "UTF-16BE", b"\xff\xfe": "UTF-16LE"}
    assert {mark for mark, _, _ in middleware_module._BOMS.values()} == set(marks)
    for first, (mark, encoding, codec) in middleware_module._BOMS.items():
        assert mark[:1] == first
        assert bom_sniff(mark + b"x") == lookup(marks[mark]) == encoding
        assert codec == middleware_module.codec_name(read_bom(mark + b"x")[0])
    assert read_bom(b"\xff\xfe\x00\x00x")[0] == ("utf-16-le" if W3LIB_STANDARD else "utf-32-le")


def test_the_w3lib_generation_is_told_from_its_features() -> None:
    # The package tells stock Scrapy's decoding apart by a function new in w3lib 2.6.
    assert middleware_module.W3LIB_DECODES_THE_STANDARD is W3LIB_STANDARD


_BOM_CONTENTS = [
    "plain ascii " * 10, "Voilà un café à côté. " * 10, "“quoted” — Привет 日本 \U0001f600",
]  # fmt: skip


@pytest.mark.parametrize("kinds", [("html",), ("html", "text")])
def test_every_bom_equals_the_general_path(
    kinds: tuple[str, ...], caplog: pytest.LogCaptureFixture
) -> None:
    # Every BOM (the standard's three, and w3lib's UTF-32 ones: FF FE 00 00 starts as
    # UTF-16LE's), cut ones, behind headers with and without a charset (one the BOM
    # overrides, one that names no encoding), before text of every kind (ASCII, Latin-1
    # letters, wider characters, invalid bytes), with and without a declaration in the
    # document: the same text, decision, flags, record, encoding, stats and logs as the
    # general path, from a new plan and from a cached one.
    settings = {"CHARSET_RESPONSE_TYPES": ",".join(kinds)}
    cls = HtmlResponse if len(kinds) == 1 else TextResponse
    caplog.set_level(logging.INFO)
    fast_mw, fast_crawler = middleware(settings)
    general_mw, general_crawler = middleware(settings)
    _general(general_mw)
    boms = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff",
            b"\xef\xbb", b"\xff"]  # fmt: skip
    headers = [None, "text/html", "text/html; charset=utf-8", "text/html; charset=windows-1251",
               "text/html; charset=utf-16", "text/html; charset=bogus",
               "application/xhtml+xml"]  # fmt: skip
    heads = [b"", b'<meta charset="koi8-r">', b"<?xml version='1.0' encoding='gbk'?>"]
    for bom in boms:
        for codec in ("utf-8", "utf-16-le", "utf-16-be"):
            for content in _BOM_CONTENTS:
                for head in heads:
                    body = bom + head + content.encode(codec) + b"\xff\xc3"
                    for header in headers:
                        for _ in range(2):
                            fast = _outcome(fast_mw, fast_crawler, cls, body, header, caplog)
                            general = _outcome(
                                general_mw, general_crawler, cls, body, header, caplog
                            )
                            assert fast == general, (body[:40], header)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_HEADS), max_size=5), st.sampled_from(_BOMS))
def test_a_head_that_may_not_declare_declares_nothing(pieces: list[bytes], bom: bytes) -> None:
    body = bom + b"".join(pieces) + "<p>Größe".encode()
    if may_declare(body):
        return
    # No in-document declaration: a header naming an encoding no piece names overrides none.
    decision = decode_html(body, "text/html; charset=iso-8859-5")[1]
    assert [d.source.value for d in decision.overridden] in ([], ["header"])
    assert decision.encoding == lookup("iso-8859-5") or decision.source.value == "bom"


def test_plans_keep_no_header_bytes_a_server_could_multiply() -> None:
    """A plan is cached per Content-Type value list; a response sending the header many times
    (or a value too long) gets the same text and decision from the general path, and the
    cache keeps none of its bytes."""
    mw, _ = middleware()
    values = [f"text/html; charset=utf-8; x={n}".encode() for n in range(3)]
    for header in (values, [b"text/html; charset=utf-8; x=" + b"y" * 300]):
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": header}, body=b"<p>\xc3\xa9")
        result = mw.process_response(request, response)
        assert result.text == "<p>é"
        assert result.charset_decision == decode_html(b"<p>\xc3\xa9", header)[1]
    assert not any(len(key) > 3 or any(len(v) > 256 for v in key) for key in mw._plans)
    kept = [key for key in mw._plans if any(value in key for value in values)]
    assert kept == []


_SCRIPT = b"<script>" + b"var x = 1;\n" * 100 + b"</script>"  # past byte 1,024


@pytest.mark.parametrize(
    "head",
    [
        b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
        b"<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=UTF-8' />",
        b'<meta charset="utf-8">' + _SCRIPT,
        _SCRIPT + b'<meta charset="utf-8">',
        _SCRIPT + b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
    ],
)
def test_the_certain_path_is_taken_for_plain_meta_pages(
    head: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain <meta> that stock Scrapy reads too: http-equiv's content, and after 1,024
    bytes of <head> (within w3lib's 4,096): decided without the general path, as it
    decides."""
    body = b"<!DOCTYPE html><html><head>" + head + "<p>Größe".encode()
    expected = decode_html(body, "text/html")
    fast_mw, fast_crawler = middleware()
    monkeypatch.setattr(fast_mw, "_decide", lambda *a: pytest.fail("general path"))
    general_mw, general_crawler = middleware()
    _general(general_mw)
    for mw in (fast_mw, general_mw):
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": "text/html"}, body=body)
        result = mw.process_response(request, response)
        assert (result.text, result.charset_decision) == expected
    assert charset_stats(fast_crawler) == charset_stats(general_crawler)


def test_a_meta_outcome_is_kept_apart_for_a_late_meta() -> None:
    """The same labels in a leading and in a late <meta>: two decisions (meta, late_meta)."""
    mw, _ = middleware()
    for head in (b'<meta charset="koi8-r">', _SCRIPT + b'<meta charset="koi8-r">') * 2:
        body = b"<html><head>" + head + "<p>Привет".encode("koi8-r")
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": "text/html"}, body=body)
        result = mw.process_response(request, response)
        assert result.charset_decision == decode_html(body, "text/html")[1]


def test_a_header_over_a_leading_meta_needs_no_scan_of_the_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the header decides and a leading <meta> declares: no full scan where both name
    one encoding, one per label (cached) where the header overrides the <meta>."""
    calls: list[bytes] = []
    real = middleware_module.certain_decision

    def counting(body: bytes, *args: Any) -> Any:
        if body:  # (not a plan's decision, made once per header)
            calls.append(body)
        return real(body, *args)

    monkeypatch.setattr(middleware_module, "certain_decision", counting)
    mw, crawler = middleware()
    pages = [
        ("utf-8", '<meta charset="UTF-8"><p>Größe'.encode()),
        ("utf-8", '<meta http-equiv="content-type" content="text/html; charset=utf-8">é'.encode()),
        ("utf-8", '<meta charset="utf-16"><p>Größe'.encode()),  # read as UTF-8
        ("windows-1252", "<meta charset='x-user-defined'><p>Größe".encode("cp1252")),
        ("iso-8859-1", '<meta charset="utf-8"><p>Größe'.encode()),  # the header overrides
        ("iso-8859-1", '<meta charset="utf-8"><p>Maß'.encode()),
        ("iso-8859-1", '<meta charset="koi8-r"><p>Maß'.encode()),
    ]
    for charset, body in pages:
        header = f"text/html; charset={charset}"
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": header}, body=body)
        result = mw.process_response(request, response)
        assert (result.text, result.charset_decision) == decode_html(body, header)
    assert len(calls) == 2  # utf-8 and koi8-r under the ISO-8859-1 header
    assert charset_stats(crawler)["charset/conflict"] == 3


# XML declarations as sniffing and w3lib read them or not: labels, quotes, case, spaces
# (w3lib's \s also matches \x0c and \x85 in its Latin-1 reading), "<" inside, no label,
# an unknown one, UTF-16 (read as UTF-8), past 1,024 bytes, after a comment.
_XML_HEADS = [
    b'<?xml version="1.0" encoding="utf-8"?>', b"<?xml version='1.0' encoding='windows-1251'?>",
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', b'<?xml encoding="bogus"?>',
    b'<?xml version="1.0"?>', b'<?XML encoding="gbk"?>', b'<?xml-stylesheet encoding="gbk"?>',
    b'<?xml\tencoding = "koi8-r" ?>', b'<?xml encoding="utf-16"?>', b"<?xml encoding=gbk?>",
    b'<?xml version="1.0" <p encoding="gbk">', b'<?xml encoding="x-user-defined"?>',
    b'<?xml encoding="iso-2022-kr"?>', b'<?xml encoding="utf-8 "?>', b'<?xml encoding=" gbk"?>',
    b'<?xml\x0cencoding="gbk"?>', b'<?xml\x85encoding="gbk"?>', b'<?xml encoding="gbk"',
    b'<?xml encoding="shift_jis"' + b" " * 1100 + b"?>", b'<!-- x --><?xml encoding="gbk"?>',
    b'<?xml encoding="koi8-r"?><meta charset="gbk">', b"<?xml encoding='latin1'?>",
    b'<?xml version="1.0" encoding="utf-7"?>', b"<?xml encoding='euc-kr'?>",
    b'<?xml <meta charset="gbk">', b'<?xml version="1.0" <meta charset="koi8-r>',
]  # fmt: skip
_XML_TYPES = [
    None, "text/xml", "application/xml", "application/rss+xml", "application/xhtml+xml",
    "image/svg+xml", "text/html", "text/plain", "text/xml; charset=utf-8",
    "application/rss+xml; charset=windows-1251", "text/xml; charset=bogus",
    "application/xhtml+xml; charset=koi8-r", "text/xml; charset=utf-16",
]  # fmt: skip


@st.composite
def xml_pages(draw: Any) -> tuple[bytes, list[str] | None]:
    text = draw(st.sampled_from(_TEXTS))
    content = text.encode(draw(st.sampled_from(_CODECS)), "replace")
    head = draw(st.sampled_from(_XML_HEADS)) + b"".join(
        draw(st.lists(st.sampled_from(_HEADS + _XML_HEADS), max_size=2))
    )
    body = draw(st.sampled_from(_BOMS)) + head + b"<rss>" + content + draw(st.binary(max_size=4))
    values = draw(st.lists(st.sampled_from(_XML_TYPES), min_size=1, max_size=2))
    return body, [v for v in values if v is not None] or None


@pytest.mark.parametrize(
    ("kinds", "cls"),
    [("html", HtmlResponse), ("html,xml", XmlResponse), ("html,xml,text", TextResponse)],
)
@settings(
    max_examples=700, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(page=xml_pages())
def test_xml_pages_equal_the_general_path(
    kinds: str, cls: type, page: tuple[bytes, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """XML (XmlResponse, or an XML media type in an HtmlResponse or TextResponse): the
    certain path of a BOM, a header charset or an XML declaration, remembered by its bytes
    for the next body (here after the cache of earlier examples), equals the general path."""
    body, header = page
    caplog.set_level(logging.INFO)
    fast_mw, fast_crawler = middleware({"CHARSET_RESPONSE_TYPES": kinds})
    general_mw, general_crawler = middleware({"CHARSET_RESPONSE_TYPES": kinds})
    _general(general_mw)
    for _ in range(2):
        fast = _outcome(fast_mw, fast_crawler, cls, body, header, caplog)
        general = _outcome(general_mw, general_crawler, cls, body, header, caplog)
        assert fast == general


@pytest.mark.parametrize(
    ("cls", "header", "body"),
    [
        (HtmlResponse, "application/xhtml+xml", b'<?xml version="1.0" encoding="utf-8"?>'),
        (XmlResponse, "text/xml", b"<?xml version='1.0' encoding='windows-1251'?>"),
        (XmlResponse, "application/rss+xml", b'<?xml version="1.0" encoding="ISO-8859-1"?>'),
        (XmlResponse, "application/rss+xml; charset=windows-1251", b"<?xml version='1.0'?>"),
        (XmlResponse, "text/xml; charset=utf-8", b"<?xml version='1.0' encoding='koi8-r'?>"),
        (XmlResponse, None, b'\xef\xbb\xbf<?xml version="1.0"?>'),
        (HtmlResponse, "application/xhtml+xml", b'\xef\xbb\xbf<meta charset="koi8-r">'),
    ],
)
def test_the_certain_path_is_taken_for_xml_pages(
    cls: type, header: str | None, body: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An XML declaration stock Scrapy reads too, a header charset, a BOM: decided without
    the general path, as it decides (sniff_xml), for every page with that declaration."""
    fast_mw, fast_crawler = middleware({"CHARSET_RESPONSE_TYPES": "html,xml"})
    monkeypatch.setattr(fast_mw, "_decide", lambda *a: pytest.fail("general path"))
    general_mw, general_crawler = middleware({"CHARSET_RESPONSE_TYPES": "html,xml"})
    _general(general_mw)
    for text in ("<rss>Größe</rss>", "<feed>Привет</feed>"):
        codec = "cp1251" if b"1251" in body + (header or "").encode() else "utf-8"
        page = body + text.encode(codec, "replace")
        expected = sniff_xml(page, header)
        for mw in (fast_mw, general_mw):
            request = Request("http://example.com/feed")
            headers = {} if header is None else {"Content-Type": header}
            result = mw.process_response(request, cls(request.url, headers=headers, body=page))
            assert result.charset_decision == expected
            assert result.text == decode_as_decided(page, expected)
    assert charset_stats(fast_crawler) == charset_stats(general_crawler)


def test_a_bom_over_a_leading_meta_needs_no_scan_of_the_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a UTF-8 BOM, a leading <meta> (a page saved with its BOM): no full scan where
    it names UTF-8 too, one per label (cached) where the BOM overrides it, with or without a
    header charset (which the BOM overrides too)."""
    calls: list[bytes] = []
    real = middleware_module.certain_decision

    def counting(body: bytes, *args: Any) -> Any:
        if len(body) > 3:  # (not a plan's decision, made once per header and BOM)
            calls.append(body)
        return real(body, *args)

    monkeypatch.setattr(middleware_module, "certain_decision", counting)
    mw, crawler = middleware()
    bom = b"\xef\xbb\xbf"
    pages = [
        ("text/html", bom + '<meta charset="UTF-8"><p>Größe'.encode()),
        ("text/html", bom + '<html><head><meta charset="utf-8"><p>Maß'.encode()),
        ("text/html; charset=windows-1251", bom + '<meta charset="utf-8"><p>Größe'.encode()),
        ("text/html", bom + '<meta charset="koi8-r"><p>Größe'.encode()),  # the BOM overrides
        ("text/html", bom + '<meta charset="koi8-r"><p>Maß'.encode()),
    ]
    for header, body in pages:
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": header}, body=body)
        result = mw.process_response(request, response)
        assert (result.text, result.charset_decision) == decode_html(body, header)
    assert len(calls) == 1  # koi8-r after the BOM, once
    assert charset_stats(crawler)["charset/conflict"] == 3


def test_a_body_is_checked_for_ascii_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Undeclared ISO-2022-JP (ASCII bytes): the middleware's plain-ASCII test, the UTF-8
    # check, detection's fast path and stock Scrapy's codec for the statistic ask whether
    # the body is ASCII; bytes.isascii runs once per body (four times before), answering
    # each as it does, also for bytes not remembered (short, or a bytearray).
    from scrapy_charset.encoding import fast

    checked: list[int] = []

    def counted(data: bytes) -> bool:
        checked.append(len(data))
        return data.isascii()

    monkeypatch.setattr(fast, "_isascii", counted)
    mw, crawler = middleware()
    body = ("<p>" + "日本語のテキスト。" * 500).encode("iso-2022-jp")
    for page in (body, body[:-1] + b"."):  # another body: checked again
        request = Request("http://example.com/")
        response = HtmlResponse(request.url, headers={"Content-Type": "text/html"}, body=page)
        result = mw.process_response(request, response)
        assert result.text == decode_html(page, "text/html")[0]
        assert request.meta["charset_decision"]["encoding"] == "ISO-2022-JP"
    assert checked == [len(body), len(body)]
    for data in (b"abc", b"\xe9", bytearray(b"x" * 5000), b"x" * 5000 + b"\x80", b"x" * 5000):
        for _ in range(2):
            assert fast.is_ascii(data) is data.isascii()


@pytest.mark.parametrize("general", [False, True], ids=["certain path", "general path"])
@pytest.mark.parametrize(
    "body",
    [b"<meta", b"<p>cut short <META", b"<html><head><title>x</title><Meta",
     "<p>Größe <meta".encode("cp1252"), b"\xef\xbb\xbf<p>x<meta", b"<p>fine<meta "],
)  # fmt: skip
def test_a_body_whose_stock_scan_fails_is_taken_over(body: bytes, general: bool) -> None:
    """w3lib 2.6's scan for a <meta> panics on a body ending in "<meta" (pyo3's
    PanicException, a BaseException: stock Scrapy's .text raises it). The plugin reads such a
    page as a browser does, and counts it as changed wherever stock Scrapy's .text raises."""
    fresh, crawler = middleware()
    mw = _general(fresh) if general else fresh
    try:
        stock: str | None = HtmlResponse("http://example.com/", body=body).text
    except BaseException as exc:  # noqa: BLE001 (a PanicException is no Exception)
        assert type(exc).__name__ == "PanicException"
        assert W3LIB_STANDARD
        stock = None
    request = Request("http://example.com/")
    response = HtmlResponse(request.url, body=body, request=request)
    result = mw.process_response(request, response)
    text, decision = decode_html(body, None)
    assert (result.text, result.charset_decision) == (text, decision)
    stats = charset_stats(crawler)
    assert not [key for key in stats if key.startswith("charset/error")]
    assert ("charset/changed" in stats) is (stock is None or stock != text)
    # (Not after a BOM: stock Scrapy reads no declaration then.)
    scanned = not body.startswith(b"\xef\xbb\xbf")
    assert (stock is None) is (W3LIB_STANDARD and scanned and body[-5:].lower() == b"<meta")


def test_a_panic_of_w3lib_is_an_error_the_statistic_reports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The class: any of w3lib's functions the model of stock Scrapy calls failing with a
    panic of compiled code (a BaseException named PanicException) is turned into an error
    (StockScrapyFails), never one that leaves process_response; other BaseExceptions
    (KeyboardInterrupt) are not caught."""

    class PanicException(BaseException):
        pass

    def panics(*args: Any) -> Any:
        raise PanicException("index out of range")

    for name in ("html_body_declared_encoding", "http_content_type_encoding", "read_bom",
                 "resolve_encoding"):  # fmt: skip
        wrapped = middleware_module._panics_as_errors(panics)
        with pytest.raises(middleware_module.StockScrapyFails):
            wrapped(b"<p>")
        monkeypatch.setattr(middleware_module, name, wrapped)
    middleware_module._stock_ascii_codec.cache_clear()
    middleware_module._cached_stock_header_codec.cache_clear()
    try:
        for body, header in [(b"<p>x</p>", None), (b"<p>caf\xe9</p>", "text/html; charset=koi8-r"),
                             (b"\xff\xfe<\x00p\x00>\x00", None), (b"<meta charset=gbk><p>x", None)]:  # fmt: skip  # noqa: E501
            mw, crawler = middleware()
            _general(mw)
            headers = Headers({} if header is None else {"Content-Type": header})
            request = Request("http://example.com/")
            response = HtmlResponse(request.url, headers=headers, body=body, request=request)
            result = mw.process_response(request, response)
            assert (result.text, result.charset_decision) == decode_html(body, header)
            stats = charset_stats(crawler)
            assert not [key for key in stats if key.startswith("charset/error")], stats
    finally:
        middleware_module._stock_ascii_codec.cache_clear()
        middleware_module._cached_stock_header_codec.cache_clear()

    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        middleware_module._panics_as_errors(interrupted)(b"<p>")


@pytest.mark.parametrize("general", [False, True], ids=["certain path", "general path"])
@pytest.mark.parametrize(
    "value",
    [b"text/html; charset=x", b"text/html; charset=koi8-r", b"text/html", b"text/plain",
     b"text/html; charset=koi8-r, text/html", b'text/html; charset="koi8-r"', b""],
)  # fmt: skip
def test_a_repeated_content_type_reads_as_the_whole_list(value: bytes, general: bool) -> None:
    """A server repeating one Content-Type value (a hostile one, hundreds of times): the
    decision, text and statistics are those of sniffing the whole list, as a browser reads
    it, and stock Scrapy's reading of it (its last value) is compared."""
    body = "<p>Привет, дом</p>".encode("koi8-r")
    seen: list[dict[str, Any]] = []
    for count in (1, 2, 300):
        fresh, crawler = middleware({"CHARSET_RESPONSE_TYPES": "html, text"})
        mw = _general(fresh) if general else fresh
        headers = Headers()
        for _ in range(count):
            headers.appendlist(b"Content-Type", value)
        request = Request("http://example.com/")
        cls = TextResponse if value.startswith(b"text/plain") else HtmlResponse
        response = cls(request.url, headers=headers, body=body, request=request)
        expected = (decode_text if cls is TextResponse else decode_html)(
            body, [value] * count, url=request.url
        )
        result = mw.process_response(request, response)
        assert (result.text, result.charset_decision) == expected, count
        seen.append(charset_stats(crawler))
    # Stock Scrapy reads the last value: repeated, the statistics are those of one value.
    if b"," not in value:
        assert seen[0] == seen[1] == seen[2], seen
    assert middleware_module._one_if_repeated([value] * 3) == (
        [value] * 3 if b"," in value or b'"' in value else [value]
    )
    assert middleware_module._one_if_repeated([value, b"text/html"]) == [value, b"text/html"] or (
        value == b"text/html"
    )
