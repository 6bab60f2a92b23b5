"""The sniffing order, the Decision record, and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, lookup
from scrapy_charset.sniffing import Decision, Declaration, Source, sniff

META_GBK = b'<html><head><meta charset="GBK"><title>x</title></head><body>\xc4\xe3</body>'


def test_bom_beats_header_and_meta() -> None:
    decision = sniff(b"\xef\xbb\xbf" + META_GBK, "text/html; charset=koi8-r")
    assert decision.encoding == UTF_8
    assert decision.source is Source.BOM
    assert decision.confident
    assert decision.label is None
    assert decision.overridden == (
        Declaration(Source.HEADER, "koi8-r", lookup("koi8-r")),
        Declaration(Source.META, "GBK", lookup("gbk")),
    )


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [(b"\xfe\xff", UTF_16BE), (b"\xff\xfe", UTF_16LE), (b"\xef\xbb\xbf", UTF_8)],
)
def test_the_three_boms(bom: bytes, encoding: object) -> None:
    assert sniff(bom + b"x").encoding == encoding
    assert sniff(bom).source is Source.BOM


def test_no_other_boms() -> None:
    # UTF-32 and UTF-7 signatures are not BOMs for the Encoding Standard.
    assert sniff(b"\x00\x00\xfe\xffabc").source is not Source.BOM
    assert sniff(b"+/v8-abc").source is not Source.BOM
    assert sniff(b"\xef\xbbabc").source is not Source.BOM


def test_header_beats_meta() -> None:
    decision = sniff(META_GBK, "text/html; charset=ISO-8859-2")
    assert decision == Decision(
        lookup("iso-8859-2"),  # type: ignore[arg-type]
        Source.HEADER,
        "ISO-8859-2",
        (Declaration(Source.META, "GBK", lookup("gbk")),),
        True,
    )


def test_agreeing_declarations_did_not_lose() -> None:
    assert sniff(META_GBK, "text/html; charset=gb2312").overridden == ()


def test_unknown_header_label_is_ignored_and_reported() -> None:
    decision = sniff(META_GBK, "text/html; charset=utf-7")
    assert decision.source is Source.META
    assert decision.encoding == lookup("gbk")
    assert decision.label == "GBK"
    assert not decision.confident
    assert decision.overridden == (Declaration(Source.HEADER, "utf-7", None),)


def test_replacement_header_is_honoured() -> None:
    decision = sniff(META_GBK, "text/html; charset=iso-2022-kr")
    assert decision.encoding == lookup("replacement")
    assert decision.source is Source.HEADER


def test_meta_utf16_means_utf8() -> None:
    decision = sniff(b'<meta charset="utf-16">\xc3\xa9')
    assert decision.encoding == UTF_8
    assert decision.label == "utf-16"
    assert decision.source is Source.META


def test_forced_wins_over_bom() -> None:
    decision = sniff(b"\xef\xbb\xbf" + META_GBK, "text/html; charset=koi8-r", forced="latin1")
    assert decision.encoding == WINDOWS_1252
    assert decision.source is Source.FORCED
    assert decision.label == "latin1"
    assert {d.source for d in decision.overridden} == {Source.HEADER, Source.META}
    assert sniff(META_GBK, forced=lookup("koi8-r")).label == "KOI8-R"


def test_unknown_forced_label_is_reported_and_ignored() -> None:
    decision = sniff(META_GBK, forced="no-such-encoding")
    assert decision.source is Source.META
    assert Declaration(Source.FORCED, "no-such-encoding", None) in decision.overridden


def test_xml_declaration() -> None:
    decision = sniff(b'<?xml version="1.0" encoding="windows-1251"?><html>\xcf\xf0\xe8</html>')
    assert decision.encoding == lookup("windows-1251")
    assert decision.source is Source.XML_DECLARATION
    assert decision.label == "windows-1251"


def test_meta_beats_xml_declaration() -> None:
    body = b'<?xml version="1.0" encoding="windows-1251"?><meta charset=koi8-r>'
    decision = sniff(body)
    assert decision.encoding == lookup("koi8-r")
    assert decision.source is Source.META


def test_late_meta_in_head() -> None:
    body = b"<html><head><script>" + b"x" * 3000 + b'</script><meta charset="koi8-r">'
    decision = sniff(body + b"</head><body>\xf0\xd2\xc9</body>")
    assert decision.encoding == lookup("koi8-r")
    assert decision.source is Source.LATE_META
    assert decision.label == "koi8-r"


def test_late_meta_after_head_is_ignored() -> None:
    body = b"<html><head></head><body>" + b"x" * 3000 + b'<meta charset="koi8-r">'
    assert sniff(body).source is Source.DEFAULT


def test_chromium_meta_reading_past_1024_bytes() -> None:
    # A charset attribute wins over content, even when unknown (as in the prescan).
    pad = b"<head><script>" + b"x" * 2000 + b"</script>"
    both = b'<meta http-equiv=Content-Type content="text/html; charset=koi8-r" charset=gbk>'
    assert sniff(pad + both).encoding == lookup("gbk")
    bogus = b'<meta http-equiv=Content-Type content="text/html; charset=koi8-r" charset=x>'
    decision = sniff(pad + bogus + b"<body>" + b"y" * 2000)
    assert decision.source is Source.DEFAULT
    assert decision.overridden == (Declaration(Source.LATE_META, "x", None),)
    # Text does not leave <head>; a tag not allowed in <head> does.
    assert sniff(b"x" * 1500 + b"<meta charset=gbk>").source is Source.LATE_META
    assert sniff(b"<div>" + b"x" * 1500 + b"<meta charset=gbk>").source is Source.DEFAULT
    assert sniff(b"<body>" + b"x" * 600 + b"<meta charset=gbk>").source is Source.META


def test_xml_declaration_read_to_its_end() -> None:
    body = b'<?xml version="1.0"' + b" " * 1500 + b'encoding="koi8-r"?><p>abc'
    assert sniff(body).source is Source.XML_DECLARATION


def test_meta_inside_script_is_not_a_late_meta() -> None:
    body = b"<head><script>" + b"x" * 2000 + b'"<meta charset=koi8-r>"</script><body>'
    assert sniff(body + b"y" * 2000).source is Source.DEFAULT


def test_valid_utf8_without_declaration() -> None:
    decision = sniff("<p>Grüße, ça va</p>".encode())
    assert decision.encoding == UTF_8
    assert decision.source is Source.UTF8
    assert decision.label is None


def test_ascii_gets_windows_1252_whatever_the_tld() -> None:
    for url in (None, "https://example.co.jp/x", "http://example.ru/"):
        decision = sniff(b"<p>plain</p>", url=url)
        assert (decision.encoding, decision.source) == (WINDOWS_1252, Source.DEFAULT)


def test_tld_default_when_nothing_else_decides() -> None:
    body = "<p>日本語</p>".encode("shift_jis")
    decision = sniff(body, url="https://example.co.jp/x", detector=None)
    assert (decision.encoding, decision.source) == (lookup("shift_jis"), Source.TLD)
    assert sniff(body, url="https://example.jp/", detector=None, tld_hint=False).source is (
        Source.DEFAULT
    )


def test_iso_2022_jp_is_recognised_by_its_escapes() -> None:
    body = "<p>日本語のテキスト</p>".encode("iso2022_jp")
    decision = sniff(body)
    assert decision.encoding == lookup("iso-2022-jp")
    assert decision.source is Source.DETECTION


def test_detector_none_skips_detection() -> None:
    body = "<p>Привет, как дела? Всё хорошо, спасибо.</p>".encode("cp1251")
    assert sniff(body, detector=None).source is Source.DEFAULT
    assert sniff(body, url="http://x.ru/", detector=None).encoding == lookup("windows-1251")


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        b"",
        [],
        ["text/html", b"text/html; charset=\xff\x00"],
        "text/html; charset=\x00",
        "text/html; charset=\u4e2d\u6587",
        b"\x00" * 100,
        ("a", "b", "c"),
        object(),
    ],
)
def test_any_header_gives_a_decision(header: object) -> None:
    assert isinstance(sniff(b"<p>x</p>", header), Decision)


@pytest.mark.parametrize("url", [None, "", "not a url", "http://[::1/", "http://1.2.3.4/", b"\xff"])
def test_any_url_gives_a_decision(url: object) -> None:
    assert isinstance(sniff(b"<p>\xe9</p>", url=url), Decision)  # type: ignore[arg-type]


def test_body_types() -> None:
    assert sniff(bytearray(b"<meta charset=gbk>")).encoding == lookup("gbk")
    assert sniff(memoryview(b"<meta charset=gbk>")).encoding == lookup("gbk")
    assert sniff(b"").source is Source.DEFAULT
    with pytest.raises(TypeError):
        sniff("text")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    body=st.binary(max_size=3000),
    header=st.one_of(st.none(), st.text(max_size=80), st.binary(max_size=80)),
)
def test_any_bytes_give_a_decision(body: bytes, header: object) -> None:
    decision = sniff(body, header)
    assert isinstance(decision, Decision)
    assert decision.encoding is not None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [b"<", b">", b"<meta", b" charset=", b"gbk", b"koi8-r", b"'", b'"', b"<!--",
             b"-->", b"<?xml", b" encoding=", b"http-equiv=content-type", b" content=",
             b"<script>", b"</script>", b"<head>", b"<body>", b"\xe9", b"/", b"="]
        ),
        max_size=60,
    )
)
def test_markup_soup_gives_a_decision(parts: list[bytes]) -> None:
    assert isinstance(sniff(b"".join(parts)), Decision)
