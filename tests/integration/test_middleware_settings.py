"""The CHARSET_* settings, and the middleware's model of what stock Scrapy would decode."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scrapy.http import Headers, HtmlResponse
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, resolve_encoding

from scrapy_charset.encoding import lookup
from scrapy_charset.integration.middleware import (
    _SEQUENCES,
    _differs,
    _inexact_sequences,
    _leading_meta_outcome,
    _Outcome,
    _outcome,
    _Plan,
    _stock_body_codec,
    _w3lib_plain_meta,
    _w3lib_stops_before,
    stock_scrapy_codec,
    stock_text_differs,
)
from scrapy_charset.integration.response import codec_name
from scrapy_charset.integration.settings import (
    CharsetSettingsError,
    load_detector,
    parse_forced_encoding,
    parse_response_types,
    read_settings,
)
from scrapy_charset.sniffing import DEFAULT_DETECTOR, ChardetngDetector, decode_html
from tests.integration.test_middleware_support import make_crawler, middleware
from tests.support.scrapy_compat import W3LIB_STANDARD


def test_defaults() -> None:
    config = read_settings(make_crawler().settings)
    assert config.enabled is True
    assert config.response_types == frozenset({"html"})
    assert config.detector is DEFAULT_DETECTOR
    assert config.tld_hint is True
    assert config.force_encoding is None


def test_values_from_the_command_line_are_strings() -> None:
    config = read_settings(
        make_crawler(
            {
                "CHARSET_RESPONSE_TYPES": "html,XML",
                "CHARSET_TLD_HINT": "0",
                "CHARSET_FORCE_ENCODING": "latin1",
                "CHARSET_DETECTOR": "charset_normalizer",
            }
        ).settings
    )
    assert config.response_types == frozenset({"html", "xml"})
    assert config.tld_hint is False
    assert config.force_encoding == lookup("windows-1252")  # "latin1" is a windows-1252 label
    assert config.detector is DEFAULT_DETECTOR


def test_chardetng_detector_needs_its_extra() -> None:
    try:
        import chardetng_py  # noqa: F401
    except ImportError:
        with pytest.raises(CharsetSettingsError, match="chardetng"):
            load_detector("chardetng")
    else:
        assert isinstance(load_detector("chardetng"), ChardetngDetector)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"CHARSET_RESPONSE_TYPES": ["html", "json"]}, "unknown response type"),
        ({"CHARSET_RESPONSE_TYPES": 3}, "expected a list"),
        ({"CHARSET_FORCE_ENCODING": "utf-7"}, "not an Encoding Standard label"),
        ({"CHARSET_DETECTOR": "no.such.module.Detector"}, "cannot load"),
        ({"CHARSET_DETECTOR": "nonsense"}, "import path"),
        ({"CHARSET_DETECTOR": "builtins.object"}, "no detect"),
        ({"CHARSET_TLD_HINT": "maybe"}, "expected a boolean"),
    ],
)
def test_wrong_values_fail_at_start_with_the_setting_named(
    settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(CharsetSettingsError, match=message) as info:
        middleware(settings)
    assert next(iter(settings)) in str(info.value)


def test_a_disabled_middleware_does_not_load_its_detector() -> None:
    config = read_settings(
        make_crawler({"CHARSET_ENABLED": False, "CHARSET_DETECTOR": "no.such.Thing"}).settings
    )
    assert config.enabled is False


class CrawlerAwareDetector:
    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlerAwareDetector:
        return cls(crawler.settings.getint("MY_THRESHOLD"))

    def detect(self, data: bytes, *, tld: str | None) -> None:
        return None


def test_detector_by_import_path_object_or_class() -> None:
    crawler = make_crawler({"MY_THRESHOLD": 7})
    path = f"{__name__}:CrawlerAwareDetector"
    built = load_detector(path, crawler)
    assert isinstance(built, CrawlerAwareDetector) and built.threshold == 7
    assert load_detector(f"{__name__}.CrawlerAwareDetector", crawler).threshold == 7
    assert load_detector(DEFAULT_DETECTOR) is DEFAULT_DETECTOR
    assert load_detector("none") is None and load_detector(None) is None


def test_parsers_directly() -> None:
    assert parse_response_types(("text",)) == frozenset({"text"})
    assert parse_response_types("") == frozenset()
    assert parse_forced_encoding("", "X") is None
    assert parse_forced_encoding(b"sjis", "X") == lookup("Shift_JIS")


# -- the model of stock Scrapy, checked against stock Scrapy itself -----------------------

_LABELS = ["utf-8", "windows-1251", "shift_jis", "latin-1", "gb2312", "koi8-r", "bogus", "utf-16"]
_LABELS += ["rot13", "base64", "iso-8859-15", "cp037"]
_TEXTS = ["plain ascii text", "café crème", "Съешь же ещё", "日本語のテキスト", "\u20ac 5"]


@st.composite
def pages(draw: Any) -> tuple[bytes, bytes | None]:
    text = draw(st.sampled_from(_TEXTS))
    codec = draw(st.sampled_from(["utf-8", "cp1251", "cp932", "cp1252", "latin-1"]))
    content = text.encode(codec, "replace")
    declaration = draw(st.sampled_from([None, *_LABELS]))
    head = b"" if declaration is None else f"<meta charset={declaration}>".encode()
    bom = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf", b"\xff\xfe"]))
    noise = draw(st.binary(max_size=6))
    header = draw(st.sampled_from([None, *_LABELS]))
    content_type = None if header is None else f"text/html; charset={header}".encode()
    return bom + head + b"<p>" + content + noise, content_type


@settings(max_examples=300, deadline=None)
@given(pages())
def test_stock_codec_model_matches_scrapy(page: tuple[bytes, bytes | None]) -> None:
    body, content_type = page
    headers = Headers({"Content-Type": content_type} if content_type else {})
    response = HtmlResponse("http://example.com/", headers=headers, body=body)
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        valid_utf8 = False
    else:
        valid_utf8 = True
    codec = stock_scrapy_codec(body, content_type, valid_utf8=valid_utf8)
    if codec is None:
        # Only where stock Scrapy has to guess with charset-normalizer.
        assert not body.isascii()
        assert not valid_utf8
        return
    try:
        stock = response.text
    except (LookupError, UnicodeError):  # a codec that cannot decode bytes to text
        stock = None
    else:
        assert html_to_unicode(f"charset={codec}", body)[1] == stock
    ours, decision = decode_html(body, content_type)
    # Judged without decoding again: exact wherever it answers (None: not judged).
    differs = stock_text_differs(body, content_type, ours, decision)
    assert differs is None or differs == (ours != stock)


def test_inexact_sequences_are_found_as_one_by_one() -> None:
    """charset/changed for a multi-byte encoding read with its nearest Python codec: the
    sequences the codec decodes otherwise, searched as one pattern, are found exactly where
    looking for each in turn finds one (random CJK-like bodies, the sequences spliced in)."""
    import random

    from scrapy_charset.encoding import get_encoding
    from scrapy_charset.encoding.tables.fast_cjk_data import FAST_CJK

    rng = random.Random(15)
    for name in [*FAST_CJK, "ISO-2022-JP"]:
        encoding = get_encoding(name)
        entry = FAST_CJK.get(name)
        if entry is None:  # every non-ASCII byte
            sequences = [bytes((b,)) for b in range(128, 256)]
        else:
            sequences = sorted({q for table in entry[2:] for seqs in table.values() for q in seqs})
        wanted = _inexact_sequences(encoding)
        for _ in range(300):
            body = bytes(rng.choice(b"<p> abc") if rng.random() < 0.5 else rng.randrange(0x81, 0xFF)
                         for _ in range(rng.randrange(0, 40)))  # fmt: skip
            if sequences and rng.random() < 0.5:
                at = rng.randrange(len(body) + 1)
                seq = rng.choice(sequences)
                body = body[:at] + seq[: rng.randrange(1, len(seq) + 1)] + body[at:]
            expected = any(seq in body for seq in sequences)
            assert _differs((_SEQUENCES, wanted), body, "text") is expected, (name, body)


# Pieces of heads where w3lib's body scan and a plain <meta charset> may disagree: comments,
# XML declarations, <body>, other metas (also "< meta", "<meta/"), raw text holding "meta",
# repeated attributes, unclosed quotes, unknown labels, bytes outside ASCII.
_HEAD_PIECES = [
    b"<meta charset='utf-8'>", b'<meta charset="shift_jis">', b'<META  CHARSET="Windows-1251" />',
    b"<meta charset=utf-8>", b'<meta charset="bogus">', b'<meta charset="utf-8" charset="koi8-r">',
    b"<!--", b"-->", b"<?xml version='1.0' encoding='latin-1'?>", b"<body>", b"<title>meta</title>",
    b'<meta name="viewport" content="x">', b"<meta\tcharset='euc-jp'\n>", b"< meta charset='gbk'>",
    b'<meta http-equiv="content-type" content="text/html; charset=koi8-r">', b"<script>",
    b"</script>", b"<p>", b"<", b">", b'"', b"'", b" ", b"\n", b"=", b"\xe9", b"\x85", b"\xa0",
    b"<meta charset='utf-8'", b'<meta charset="x-mac-roman">', b'<meta/charset="utf-8">',
    b'charset="utf-16"', b"<meta charset='utf-8\">", b"x" * 1500,
    # http-equiv's content: plain spellings and near ones w3lib may read otherwise.
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
    b"<META HTTP-EQUIV='CONTENT-TYPE' CONTENT='TEXT/HTML;CHARSET=Shift_JIS'/>",
    b'<meta http-equiv="Content-Type"\ncontent="text/html;  charset=koi8-r" >',
    b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1:1987">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8; x">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=bogus">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-16">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=\'gbk\'">',
    b'<meta content="text/html; charset=gbk" http-equiv="Content-Type">',
    b'<meta http-equiv="refresh" content="text/html; charset=gbk">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">',
    # Comments Chromium and w3lib end otherwise, an XML declaration in capitals, and <head>
    # long enough for a late <meta> (past 1,024 bytes) or one past w3lib's 4,096.
    b"<!-->", b"<!-- a --!>", b"<?XML version='1.0' encoding='koi8-r'?>",
    b"<script>" + b"var x = 1;\n" * 100 + b"</script>", b"<link rel=x>" * 250,
]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_HEAD_PIECES), min_size=1, max_size=12), st.booleans())
def test_stock_body_codec_is_w3libs(pieces: list[bytes], doctype: bool) -> None:
    # What stock Scrapy reads from the body: w3lib's answer (its scan skipped where the head
    # holds neither "charset" nor "encoding").
    body = (b"<!DOCTYPE html><html><head>" if doctype else b"") + b"".join(pieces)
    assert _stock_body_codec(body) == html_body_declared_encoding(body)


def _reads_meta_plan() -> _Plan:
    # A fresh plan for HTML without a charset in the header: nothing remembered.
    return _Plan(None, None, {}, True, None, {}, [(b"", None)], [])


def _meta_outcome(body: bytes) -> _Outcome | None:
    return _leading_meta_outcome(_reads_meta_plan(), body)


@settings(max_examples=5000, deadline=None)
@given(
    st.lists(st.sampled_from(_HEAD_PIECES), min_size=1, max_size=12),
    st.booleans(),
    st.lists(st.sampled_from(_HEAD_PIECES), max_size=4),
)
def test_leading_meta_outcome_is_sniffings_and_w3libs(
    pieces: list[bytes], doctype: bool, tail: list[bytes]
) -> None:
    # Where a leading <meta> is read without the general rules and without w3lib's scan:
    # the decision sniffing makes, and the codec stock Scrapy decodes with; also for
    # another page that starts with the same bytes through that <meta> (remembered).
    body = (b"<!DOCTYPE html><html><head>" if doctype else b"") + b"".join(pieces)
    plan = _reads_meta_plan()
    outcome = _leading_meta_outcome(plan, body)
    if outcome is None:
        assert plan.last_meta == [(b"", None)]
        return
    other = plan.last_meta[0][0] + b"".join(tail)
    assert _leading_meta_outcome(plan, other) is outcome
    for page in (body, other):
        assert outcome == _meta_outcome(page)
        assert outcome.decision == decode_html(page, "text/html")[1]
        stock = html_body_declared_encoding(page)
        assert stock is not None
        assert stock_scrapy_codec(page, b"text/html") == codec_name(resolve_encoding(stock))
        assert outcome == _outcome(outcome.decision, codec_name(resolve_encoding(stock)))


def test_leading_meta_outcome_answers_plain_pages() -> None:
    head = b'<!DOCTYPE html><html lang="fr"><head><meta charset="UTF-8"><title>x</title>'
    outcome = _meta_outcome(head)
    assert outcome is not None and outcome.decision.label == "UTF-8"
    assert outcome.unchanged  # stock Scrapy decodes UTF-8 too
    cp1251 = _meta_outcome(b"<head><meta charset='windows-1251' />")
    assert cp1251 is not None and cp1251.decision.encoding == lookup("windows-1251")
    # Not the plain case (the general path decides): a comment, another meta, <body> before
    # it, unquoted, an unknown label, a <meta> in a <script> or past 1,024 bytes. From w3lib
    # 2.6 on, stock Scrapy scans as a browser does: what comes before is read as sniffing
    # reads it (the outcome is the general path's: see the test above).
    for before in (b"<!-- -->", b'<meta name="a" content="b">', b"<body>", b"<?xml ?>"):
        outcome = _meta_outcome(before + b'<meta charset="utf-8">')
        if W3LIB_STANDARD:  # all four, as the prescan (sniffing's and stock's) reads them
            assert outcome is not None and outcome.unchanged
        else:
            assert outcome is None
    for page in (
        b"<meta charset=utf-8>", b'<meta charset="bogus">', b"<script><meta charset='koi8-r'>",
        b"<p>" + b"x" * 1100 + b'<meta charset="utf-8">',
    ):  # fmt: skip
        outcome = _meta_outcome(page)
        if W3LIB_STANDARD and page == b"<meta charset=utf-8>":  # read unquoted too
            assert outcome is not None and outcome.unchanged
        else:
            assert outcome is None


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [b"!", b"?", b"<", b"<!--", b"<!-", b"-", b"?XmL", b"?xm", b"x", b"ml", b"<!DOCTYPE",
             b"mEtA", b"met", b"BODY", b"bod", b"y", b"a", b"\n"]
        )
    ),
    st.integers(min_value=0, max_value=200),
)  # fmt: skip
def test_w3lib_stops_before_is_a_search(pieces: list[bytes], end: int) -> None:
    # As searched in a lowered copy (one "!" or several, a "?" with or without "xml").
    head = b"".join(pieces)[:end].lower()
    stops = (b"<!--", b"?xml", b"meta", b"body")
    assert _w3lib_stops_before(b"".join(pieces), end) == any(s in head for s in stops)


def test_w3lib_plain_meta() -> None:
    page = b'<!DOCTYPE html><html><head><meta charset="UTF-8"><title>x</title>'
    assert _w3lib_plain_meta(page, page.index(b"<meta")) == "UTF-8"
    assert _w3lib_plain_meta(b"<head><meta charset='shift_jis' />", 6) == "shift_jis"
    for before in (b"<!-- -->", b'<meta name="a" content="b">', b"<body>", b"<?xml ?>"):
        page = before + b'<meta charset="utf-8">'
        assert _w3lib_plain_meta(page, len(before)) is None
    assert _w3lib_plain_meta(b"<meta charset=utf-8>", 0) is None  # unquoted: w3lib decides


def test_crawlers_made_for_tests_leave_the_root_logger_alone() -> None:
    """Scrapy < 2.13 adds a log-counting handler to the root logger for every crawler made,
    removed only when its engine stops: the property tests make thousands that never crawl
    (see make_crawler)."""
    before = list(logging.root.handlers)
    for _ in range(20):
        middleware()
    assert logging.root.handlers == before

# Pieces of Content-Type values where w3lib's header reading may stop, go on or differ:
# "charset=" in any case, quotes and escapes, separators, label characters (also latin-1
# letters, which its \w reads), and runs long enough to pass the 256-character cache.
_HEADER_PIECES = [
    "text/html", ";", " ", "\t", ",", "=", "charset=", "CharSet=", " charset=", ";charset=",
    '"', '\\"', "\\", "utf-8", "koi8-r", "bogus", "x=y", "x", "c", "-", "_", "\xe9", "\xb2",
    "\xd7", "utf-7", "text/plain", "a" * 300, "; x=y" * 60, '"' + "b" * 280 + '"', "d" * 247,
]  # fmt: skip


# Few pieces, so that quotes around and between several "charset=" come often.
_QUOTING_PIECES = ['"', ";", " charset=", "koi8-r", "x=", "\\"]


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from(_HEADER_PIECES), min_size=1, max_size=14)
    | st.lists(st.sampled_from(_QUOTING_PIECES), min_size=1, max_size=10)
)
@example(['text/html; a="', "; charset=koi8-r;", '"'])  # inside a quoted string
@example(["text/html; charset=bogus", '; a="x"', "; charset=koi8-r"])  # the second, walked
def test_stock_header_codec_is_w3libs(pieces: list[str]) -> None:
    # What stock Scrapy reads from the header (w3lib's own function on the whole value),
    # read from the part _w3lib_deciding_part keeps, for values of every length.
    from w3lib.encoding import http_content_type_encoding

    from scrapy_charset.integration.middleware import _stock_header_codec, _w3lib_deciding_part

    value = "".join(pieces).encode("latin-1")
    expected = http_content_type_encoding(value.decode("latin-1"))
    part = _w3lib_deciding_part(value)
    assert (None if part is None else http_content_type_encoding(part.decode("latin-1"))) == (
        expected
    )
    assert _stock_header_codec(value) == expected


def test_the_statistic_reads_a_hostile_header_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # charset/changed needs w3lib's header charset: it is asked of the part that decides it
    # (the whole 4 KB header was read again before), with the same answer.
    from scrapy_charset.integration import middleware as module
    from tests.integration.test_middleware_support import response_for

    asked: list[str] = []
    w3lib_reading = module.http_content_type_encoding

    def recorded(content_type: str) -> str | None:
        asked.append(content_type)
        return w3lib_reading(content_type)

    monkeypatch.setattr(module, "http_content_type_encoding", recorded)
    mw, crawler = middleware()
    changed = 0
    # Stock Scrapy's text the same, then not (Python's tis_620 has no 0x80); from w3lib 2.6
    # on, the standard's windows-874 for both.
    for charset in ("koi8-r", "tis-620"):
        header = "text/html; " + "x=y; " * 800 + f"charset={charset}; n={len(asked)}"
        body = b"<p>caf\x80\x9f"
        request, response = response_for("http://example.com/", body, header)
        text = mw.process_response(request, response).text
        assert asked[-1] == f"; charset={charset};"
        stock = HtmlResponse("http://example.com/", headers={"Content-Type": header}, body=body)
        changed += text != stock.text
        assert crawler.stats.get_value("charset/changed", 0) == changed
    assert changed == (0 if W3LIB_STANDARD else 1)


def test_single_byte_tables_differ_only_where_the_body_holds_their_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # charset/changed between two single-byte tables: exactly where the body holds a byte
    # they map differently (ASCII ones too, as EBCDIC's cp037 against windows-1252); an
    # ASCII body is settled without searching it where they differ only above ASCII.
    import random

    from scrapy_charset.integration import middleware as module

    rng = random.Random(15)
    bodies = [b"", b"plain", b"x" * 5000, b"x" * 5000 + b"\x81", bytes(range(256))]
    bodies += [bytes(rng.choice(b"ab\x80\x81\x8d\x9d\xe9<") for _ in range(50)) for _ in range(50)]
    pairs = [("windows-1252", "cp037"), ("windows-1251", "latin-1"), ("koi8-r", "koi8_u"),
             ("windows-1252", "cp1250")]
    if not W3LIB_STANDARD:  # (from w3lib 2.6 on, the standard's decoder for each: the same)
        pairs += [("windows-1252", "cp1252"), ("koi8-r", "koi8_r"), ("IBM866", "cp866")]
    for ours, stock in pairs:
        comparison = module._comparison(lookup(ours), stock)
        assert comparison[0] == module._BYTES
        for body in bodies:
            expected = any(byte in body for byte in comparison[1])
            assert _differs(comparison, body, "text") is expected, (ours, stock, body[:20])
    searched: list[bytes] = []
    monkeypatch.setattr(module, "holds_any", lambda body, wanted: searched.append(body))
    comparison = module._comparison(lookup("windows-1252"), "cp1250")
    assert _differs(comparison, b"<p>ascii</p>" * 1000, "text") is False
    assert searched == []
