"""Content-Type charset extraction per Fetch's "extract a MIME type" and "legacy extract an
encoding", and MIME Sniffing's "parse a MIME type"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import REPLACEMENT, lookup
from scrapy_charset.sniffing.content_type import (
    _charset_from_combined,
    charset_from_content_type,
    collect_http_quoted_string,
    extract_mime_type,
    is_xml_mime_type,
    legacy_extract_encoding,
    parse_mime_type,
    split_header_value,
)


@pytest.mark.parametrize(
    ("header", "label", "encoding"),
    [
        ("text/html;charset=gbk", "gbk", "GBK"),
        ("TEXT/HTML; CHARSET=GBK", "GBK", "GBK"),
        ('text/html; charset="gbk"', "gbk", "GBK"),
        ('text/html;charset="gbk', "gbk", "GBK"),  # unterminated quotes run to the end
        ('text/html;charset="gbk"x', "gbk", "GBK"),  # after the closing quote is ignored
        ('text/html;charset="g\\bk"', "gbk", "GBK"),  # backslash escapes
        ("text/html;charset=gbk;charset=windows-1255", "gbk", "GBK"),  # first one wins
        ("text/html;charset=;charset=gbk", "gbk", "GBK"),  # empty values are skipped
        ("text/html;charset= gbk", " gbk", "GBK"),
        ("text/html;charset=gbk   ", "gbk", "GBK"),
        ('text/html;";charset=gbk', "gbk", "GBK"),
        ("text/html;charset=();charset=GBK", "()", None),
        ("text/html; charset=utf-7", "utf-7", None),  # not an Encoding Standard label
        ("text/html; charset=unicode-1-1-utf-7", "unicode-1-1-utf-7", None),
        ("text/html; charset=iso-2022-kr", "iso-2022-kr", "replacement"),
        ("text/html; charset=x-user-defined", "x-user-defined", "x-user-defined"),
        ("text/html; charset=utf-16", "utf-16", "UTF-16LE"),
    ],
)
def test_charset_from_one_header(header: str, label: str, encoding: str | None) -> None:
    found = charset_from_content_type(header)
    assert found is not None
    assert found[0] == label
    assert found[1] == (lookup(encoding) if encoding else None)


@pytest.mark.parametrize(
    "header",
    [
        "text/html",
        "text/html; charset",
        "text/html; charset =gbk",  # the name may not have trailing whitespace
        "text/html charset=gbk",  # no "/"-separated subtype token
        "/html; charset=gbk",
        "text/; charset=gbk",
        "",
        ",,,",
    ],
)
def test_no_charset(header: str) -> None:
    assert charset_from_content_type(header) is None


def test_several_values_last_mime_type_wins() -> None:
    # Fetch's own example: the charset is kept across values with the same essence.
    assert charset_from_content_type(["text/html;charset=gbk", 'text/html;x=",text/plain']) == (
        "gbk",
        lookup("gbk"),
    )
    # A different essence resets the charset.
    assert charset_from_content_type(["text/plain;charset=gbk", "text/html"]) is None
    assert charset_from_content_type(["text/html;charset=gbk", "text/html"]) == (
        "gbk",
        lookup("gbk"),
    )
    # Chromium honours "*/*; charset=..." (Fetch would skip it) but skips a bare "*/*"
    # (measured: header-star-type, header-comma-list-star*, header-two-headers-star-meta).
    gbk = ("gbk", lookup("gbk"))
    assert charset_from_content_type("*/*; charset=gbk") == gbk
    assert charset_from_content_type(["text/html;charset=gbk", "*/*"]) == gbk
    assert charset_from_content_type("text/html;charset=gbk, */* ,*/*") == gbk
    assert charset_from_content_type("*/*, text/html;charset=gbk") == gbk
    # With a parameter it is a type of its own: the earlier charset is dropped.
    assert charset_from_content_type("text/html;charset=gbk, */*; q=0.8") is None
    assert charset_from_content_type("text/html;charset=gbk, text/plain;charset=koi8-r") == (
        "koi8-r",
        lookup("koi8-r"),
    )
    # Invalid values are skipped, not fatal.
    assert charset_from_content_type(["text/html;charset=gbk", "nonsense"]) == (
        "gbk",
        lookup("gbk"),
    )


def test_header_forms() -> None:
    expected = ("koi8-r", lookup("koi8-r"))
    assert charset_from_content_type(b"text/html; charset=koi8-r") == expected
    assert charset_from_content_type([b"text/html; charset=koi8-r"]) == expected
    assert charset_from_content_type((bytearray(b"text/html; charset=koi8-r"),)) == expected
    assert charset_from_content_type(memoryview(b"text/html; charset=koi8-r")) == expected
    assert charset_from_content_type(None) is None
    assert charset_from_content_type([]) is None
    assert charset_from_content_type(12345) is None


def test_non_ascii_and_nul() -> None:
    assert charset_from_content_type(b"text/html; charset=\xe9") == ("\xe9", None)
    assert charset_from_content_type("text/html; charset=\u20ac") is None  # not a header byte
    assert charset_from_content_type(b"text/html; charset=utf-8\x00") is None  # NUL: dropped
    assert charset_from_content_type(b"text/\x00html; charset=utf-8") is None


def test_replacement_label() -> None:
    found = charset_from_content_type("text/html; charset=hz-gb-2312")
    assert found == ("hz-gb-2312", REPLACEMENT)


def test_split_keeps_quoted_commas() -> None:
    assert split_header_value('a, "b,c" d,e') == ["a", '"b,c" d', "e"]
    assert split_header_value("") == [""]
    assert split_header_value(' "x') == ['"x']


def test_quoted_string_algorithm() -> None:
    assert collect_http_quoted_string('"\\"a\\\\"rest', 0, extract_value=True) == ('"a\\', 7)
    assert collect_http_quoted_string('"a\\', 0, extract_value=True) == ("a\\", 3)
    assert collect_http_quoted_string('"a"b', 0, extract_value=False) == ('"a"', 3)


def test_parse_mime_type_parameters() -> None:
    mime = parse_mime_type(' Text/HTML ;  Charset="x;y" ; a=b;A=c; =d; e')
    assert mime is not None
    assert mime.essence == "text/html"
    assert mime.parameters == {"charset": "x;y", "a": "b"}


# Pieces of Content-Type values: separators, quotes, whitespace, charset spelled every way.
_PIECES = [
    "text/html", "TEXT/Html", "*/*", "a/b", "/", ";", ",", "=", '"', "\\", " ", "\t", "\n", "\x0c",
    "charset", "CharSet", "charset=", " charset=", ";charset=", "; charset=utf-8", "utf-8",
    "koi8-r ", "x=y", "\x01", "é", "ſ", "q=0.5", "text/plain;", "charset=;", '"utf-8"',
]


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
def test_charset_and_xml_as_the_full_parse(value: str) -> None:
    # charset_from_content_type and is_xml_mime_type find the charset parameter by a search
    # where the value has no quote: the same answers as extract_mime_type's full parse.
    mime = extract_mime_type(split_header_value(value))
    assert _charset_from_combined.__wrapped__(value) == legacy_extract_encoding(mime)
    xml = mime is not None and (
        mime.subtype.endswith("+xml") or mime.essence in ("text/xml", "application/xml")
    )
    assert is_xml_mime_type(value) == xml


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(_PIECES), max_size=6).map("".join), st.integers(1, 3)),
        max_size=6,
    )
)
def test_repeated_values_as_the_full_parse(values: list[tuple[str, int]]) -> None:
    # A value repeated (as a server sending a header again and again does) is read once:
    # the same answers as extract_mime_type's full parse of every value.
    value = ",".join(",".join([piece] * times) for piece, times in values)
    mime = extract_mime_type(split_header_value(value))
    assert _charset_from_combined.__wrapped__(value) == legacy_extract_encoding(mime)


_VALUES = [
    "text/html", "text/html; charset=a", "TEXT/HTML;charset=b", " text/html ; x=1", "text/plain",
    "text/plain; charset=c", "text/xml", "image/svg+xml; charset=d", "*/*", " */* ",
    "*/*; charset=e", "garbage", "", "text/html; charset=", 'text/html; charset="f,g"',
    'a/b; x="1,2"; charset=h', "text/html; charset=a",
]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_VALUES), max_size=10), st.sampled_from([",", ", ", " ,\t"]))
def test_whole_values_as_the_full_parse(values: list[str], comma: str) -> None:
    # Whole values, in runs of one essence and across essences (Fetch keeps a run's first
    # charset), failures and */* between: what extract_mime_type's parse of every value gives.
    value = comma.join(values)
    mime = extract_mime_type(split_header_value(value))
    assert _charset_from_combined.__wrapped__(value) == legacy_extract_encoding(mime)
    xml = mime is not None and (
        mime.subtype.endswith("+xml") or mime.essence in ("text/xml", "application/xml")
    )
    assert is_xml_mime_type(value) == xml


def test_thousands_of_parameters_and_values() -> None:
    # A hostile header: the charset after 10,000 parameters, in 2,000 values, after 10,000
    # semicolons (linear: the search for "charset=" is never retried at every ";").
    assert charset_from_content_type("text/html; " + "x=y; " * 10_000 + "charset=koi8-r") == (
        "koi8-r", lookup("koi8-r"),
    )
    assert charset_from_content_type("text/html; charset=koi8-r," * 2_000)[0] == "koi8-r"
    assert charset_from_content_type("text/html" + ";" * 10_000 + "charset=gbk")[0] == "gbk"
    assert charset_from_content_type("text/html; a=charset=gbk") is None


def _unescaped_by_substitution(text: str) -> tuple[str, int]:
    """collect_http_quoted_string(text, 0, extract_value=True) as it was written before: each
    escape replaced by a substitution with a template."""
    import re

    end = re.compile(r'[^"\\]*(?:\\[\s\S][^"\\]*)*').match(text, 1).end()  # type: ignore[union-attr]
    body, trailing = text[1:end], ""
    if end < len(text):
        if text[end] == "\\":
            trailing, end = "\\", len(text)
        else:
            end += 1
    return re.sub(r"\\([\s\S])", r"\1", body) + trailing, end


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(['"', "\\", "a", "é", "\n", ",", ";"]), max_size=30).map("".join))
def test_quoted_string_unescapes_as_substitution(rest: str) -> None:
    text = '"' + rest
    assert collect_http_quoted_string(text, 0, extract_value=True) == _unescaped_by_substitution(
        text
    )


@pytest.mark.parametrize("escapes", [1, 4_095, 4_096, 4_097, 8_192, 8_193, 20_000])
@pytest.mark.parametrize("escape", ['\\"', "\\\\", "\\a", "\\\n"])
@pytest.mark.parametrize("tail", ['"rest', "", "\\", "plain", 'plain"x', "\\\\"])
def test_quoted_string_is_read_whole_across_the_escapes_matched_at_once(
    escapes: int, escape: str, tail: str
) -> None:
    # The body is matched 4,096 escapes at a time: around and across each limit, the string
    # ends where one match of the whole body ends (a closing quote, a lone final backslash, the
    # end), and reads the same.
    for text in ('"' + escape * escapes + tail, '"x' + escape * escapes + tail):
        assert collect_http_quoted_string(text, 0, extract_value=True) == (
            _unescaped_by_substitution(text)
        )
        assert collect_http_quoted_string(text, 0, extract_value=False)[1] == (
            _unescaped_by_substitution(text)[1]
        )


def test_combined_values_of_every_kind() -> None:
    from scrapy_charset.sniffing.content_type import combine_header_values

    assert combine_header_values([b"text/html", bytearray(b"a/b"), memoryview(b"c/d")]) == (
        "text/html, a/b, c/d"
    )
    assert combine_header_values([b"text/html", "a/\xe9", b"\xe9"]) == "text/html, a/\xe9, \xe9"
    assert combine_header_values([b"text/html", 3, None, b"a/b"]) == "text/html, a/b"
    assert combine_header_values([]) is None
    assert combine_header_values([b"text/html; charset=koi8-r"] * 5000).count(", ") == 4999


def test_hostile_headers_are_read_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # A quoted string is collected once where no comma can split the value, and a value
    # repeated 2,000 times is parsed once (each was read again and again before).
    from scrapy_charset.sniffing import content_type

    calls: list[str] = []
    collect = content_type.collect_http_quoted_string
    essence_and_charset = content_type._essence_and_charset

    def counted_collect(text: str, position: int, *, extract_value: bool) -> tuple[str, int]:
        calls.append("collect")
        return collect(text, position, extract_value=extract_value)

    def counted_parse(value: str) -> tuple[str, str | None] | None:
        calls.append("parse")
        return essence_and_charset(value)

    monkeypatch.setattr(content_type, "collect_http_quoted_string", counted_collect)
    monkeypatch.setattr(content_type, "_essence_and_charset", counted_parse)
    escaped = 'text/html; charset="' + '\\"' * 2_000 + "; x=1"
    assert _charset_from_combined.__wrapped__(escaped) == ('"' * 2_000 + "; x=1", None)
    assert calls == ["parse", "collect"]
    calls.clear()
    repeated = ", ".join(["text/html; charset=koi8-r; x=1"] * 2_000)
    assert _charset_from_combined.__wrapped__(repeated) == ("koi8-r", lookup("koi8-r"))
    assert calls == ["parse"]
