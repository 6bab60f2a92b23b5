"""Property tests for sniffing: any body, header or URL gives a Decision, the same each time."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import ALL_ENCODINGS, decode
from scrapy_charset.sniffing import Decision, Declaration, Source, decode_html, sniff
from tests.hostile.strategies import FRAGMENTS, content_type, hostile_bytes

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

urls = st.one_of(
    st.none(),
    st.text(max_size=40),
    st.sampled_from([
        "http://example.jp/", "https://例え.テスト/ページ", "http://[::1", "http://a.ru:99999/",
        "ftp://x.kr", "http://.", "http://example.com.", "//no-scheme.cn/x", "http://xn--p1ai/",
        "http://127.0.0.1:8000/", "http://user:pw@host.tw/?q=\x00", "",
    ]),
)

# Bodies a prescan has to walk through: declarations in every position, and raw noise.
bodies = st.one_of(
    hostile_bytes,
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=200).map(b"".join),
    st.builds(lambda pad, tail: b" " * pad + tail, st.integers(0, 1100), hostile_bytes),
)


def assert_well_formed(decision: Decision) -> None:
    assert isinstance(decision, Decision)
    assert any(decision.encoding is enc for enc in ALL_ENCODINGS)
    assert isinstance(decision.source, Source)
    assert decision.label is None or isinstance(decision.label, str)
    assert isinstance(decision.confident, bool)
    assert isinstance(decision.overridden, tuple)
    for declaration in decision.overridden:
        assert isinstance(declaration, Declaration)
        assert isinstance(declaration.label, str)


@FAST
@given(body=bodies, ctype=content_type, url=urls, tld_hint=st.booleans())
def test_sniff_always_decides_and_is_deterministic(body, ctype, url, tld_hint) -> None:
    first = sniff(body, ctype, url=url, tld_hint=tld_hint)
    assert_well_formed(first)
    assert sniff(bytes(body), ctype, url=url, tld_hint=tld_hint) == first


@FAST
@given(body=bodies, ctype=content_type, url=urls)
def test_decode_html_text_is_the_decision_applied(body, ctype, url) -> None:
    text, decision = decode_html(body, ctype, url=url)
    assert decision == sniff(body, ctype, url=url)
    assert isinstance(text, str) and not LONE_SURROGATE.search(text)
    # The spec's "decode": a BOM overrides and is removed; otherwise the decided encoding.
    assert text == decode(body, decision.encoding)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=bodies,
    pad=st.sampled_from([b"", b"<!--" * 50_000, b"<meta " * 50_000, b"\xe9" * 300_000]),
    ctype=st.one_of(content_type, st.just("text/html; " + "x=\"y\\\";" * 50_000)),
)
def test_huge_bodies_and_headers_still_decide(body: bytes, pad: bytes, ctype) -> None:
    decision = sniff(body + pad + body, ctype)
    assert_well_formed(decision)
    assert sniff(body + pad + body, ctype) == decision
