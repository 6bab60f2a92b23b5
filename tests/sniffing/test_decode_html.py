"""decode_html: the browser's text for the decided encoding."""

from __future__ import annotations

from scrapy_charset.encoding import lookup
from scrapy_charset.sniffing import Source, decode_html


def test_bom_is_removed_and_overrides_the_header() -> None:
    text, decision = decode_html(b"\xef\xbb\xbf<p>\xc3\xa9</p>", "text/html; charset=koi8-r")
    assert text == "<p>é</p>"
    assert decision.source is Source.BOM


def test_utf16_bom() -> None:
    text, decision = decode_html("\ufeff<p>é</p>".encode("utf-16-le"))
    assert text == "<p>é</p>"
    assert decision.encoding == lookup("utf-16le")


def test_header_encoding_decodes_with_replacement_characters() -> None:
    text, decision = decode_html("<p>Привет</p>".encode("cp1251"), "text/html; charset=utf-8")
    assert decision.source is Source.HEADER
    assert text.startswith("<p>") and "\ufffd" in text


def test_replacement_encoding_gives_one_replacement_character() -> None:
    text, _ = decode_html(b"<p>abc</p>", "text/html; charset=iso-2022-kr")
    assert text == "\ufffd"
    assert decode_html(b"", "text/html; charset=iso-2022-kr")[0] == ""


def test_meta_declared_page() -> None:
    body = '<meta charset="koi8-r"><p>Привет</p>'.encode("koi8-r")
    text, decision = decode_html(body)
    assert "Привет" in text
    assert (decision.source, decision.label) == (Source.META, "koi8-r")


def test_forced_encoding_keeps_a_foreign_bom() -> None:
    text, decision = decode_html(b"\xef\xbb\xbfabc", forced="windows-1252")
    assert decision.source is Source.FORCED
    assert text == "ï»¿abc"
    text, _ = decode_html(b"\xef\xbb\xbfabc", forced="utf-8")
    assert text == "abc"


def test_x_user_defined_header() -> None:
    text, _ = decode_html(b"a\xe9", "text/html; charset=x-user-defined")
    assert text == "a\uf7e9"
