"""sniffing.leading_meta: the decision of a leading <meta charset>, read from a prefix."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.sniffing import Source, sniff
from scrapy_charset.sniffing.prescan import PRESCAN_LIMIT

sniff_module = importlib.import_module("scrapy_charset.sniffing.sniff")

_PIECES = [
    b"<meta charset='utf-8'>", b'<META CHARSET="koi8-r" />', b'<meta charset="bogus">',
    b'<meta http-equiv="content-type" content="text/html; charset=gbk">', b"<!-- x -->",
    b"<script>", b"</script>", b"<title>", b"</title>", b"<body>", b"<p>", b"<", b">", b"'",
    b'"', b"x" * 700, b"<meta charset=euc-jp>", b"<?xml version='1.0' encoding='latin1'?>",
    b"\x00", b"<link rel=x>", b"</head>",
]  # fmt: skip


# <meta> declarations in many spellings: the charset attribute and http-equiv's content, in
# any case, quoting and order, with other content, unknown and UTF-16 labels, x-user-defined
# (the prescan reads those two otherwise), content without http-equiv or with another one.
_METAS = [
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
    b"<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=KOI8-R' />",
    b'<meta content="text/html; charset=shift_jis" http-equiv="content-type">',
    b'<meta http-equiv=content-type content="charset = \'euc-kr\'; x">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=bogus">',
    b'<meta http-equiv="Content-Type" content="text/html">',
    b'<meta content="text/html; charset=gbk">',
    b'<meta http-equiv="refresh" content="charset=gbk">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=utf-16le">',
    b'<meta http-equiv="content-type" content="text/html; charset=x-user-defined">',
    b"<meta charset='UTF-16'>", b'<meta charset="x-user-defined">', b"<meta charset=' latin1 '>",
    b'<meta charset="windows-1251" charset="koi8-r">',
    b'<meta http-equiv="content-type" content="charset=koi8-r" charset="iso-8859-2">',
]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES + _METAS), max_size=10),
    st.sampled_from([PRESCAN_LIMIT, 4096]),
    st.lists(st.sampled_from(_PIECES + _METAS), max_size=3),
)
def test_leading_meta_is_the_general_rules_decision(
    pieces: list[bytes], limit: int, tail: list[bytes]
) -> None:
    body = b"".join(pieces)
    found = sniff_module.leading_meta(body, limit)
    if found is not None:
        decision, start, end = found
        assert decision == sniff(body, "text/html")
        assert body[start : start + 5].lower() == b"<meta" and body[end - 1 : end] == b">"
        assert start < end <= limit
        # Nothing after the <meta> counts.
        other = body[:end] + b"".join(tail)
        assert sniff_module.leading_meta(other, limit) == found
        assert decision == sniff(other, "text/html")


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES + _METAS), max_size=4),
    st.sampled_from(_METAS),
    st.sampled_from(["text/html; charset=utf-8", "text/html; charset=koi8-r", "text/html"]),
)
def test_leading_meta_is_all_a_header_overrides(
    pieces: list[bytes], meta: bytes, header: str
) -> None:
    """With a header charset, the decision overrides what the leading <meta> declares, and
    nothing else in the document."""
    body = b"".join(pieces) + meta
    found = sniff_module.leading_meta(body)
    decision = sniff(body, header)
    if found is None or decision.source.value != "header":
        return
    meta_decision = found[0]
    declared = (sniff_module.Declaration(Source.META, meta_decision.label, meta_decision.encoding),)
    assert decision.overridden == ((), declared)[meta_decision.encoding != decision.encoding]


@pytest.mark.parametrize("meta", _METAS)
def test_a_late_meta_in_head_is_found(meta: bytes) -> None:
    """After 1,024 bytes of <head> (an inline script), within the first 4,096 bytes: found
    with the larger limit, as a late <meta>; not with the first 1,024 bytes alone."""
    script = b"<script>" + b"var x = 1;\n" * 150 + b"</script>"
    body = b"<!DOCTYPE html><html><head>" + script + meta + "<p>Größe".encode()
    assert sniff_module.leading_meta(body) is None
    found = sniff_module.leading_meta(body, 4096)
    decision = sniff(body, "text/html")
    if found is not None:
        assert found[0] == decision
        assert decision.source is Source.LATE_META
    elif decision.source is Source.LATE_META:  # only an unknown label or no charset misses
        assert b"bogus" in meta or b"charset" not in meta.lower()[:40]


def test_the_content_of_http_equiv_decides() -> None:
    # (The old leading_meta read the charset attribute only.)
    found = sniff_module.leading_meta(_METAS[0] + b"<p>x")
    assert found is not None and found[0].label == "utf-8" and found[0].source is Source.META
    # UTF-16 in a <meta> is read as UTF-8, x-user-defined as windows-1252, as the prescan does.
    for meta, name in ((_METAS[8], "UTF-8"), (_METAS[9], "windows-1252")):
        found = sniff_module.leading_meta(meta)
        assert found is not None and found[0].encoding.name == name
        assert found[0] == sniff(meta, "text/html")
    for meta in (_METAS[4], _METAS[5], _METAS[6], _METAS[7]):  # unknown, none, no http-equiv
        assert sniff_module.leading_meta(meta) is None


def test_the_scan_reads_the_first_1024_bytes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long <head> (here 4 MB of <link> tags) costs no more than its first 1,024 bytes.
    lengths: list[int] = []
    real = sniff_module.next_meta

    def counting(data: bytes, *args: Any) -> Any:
        lengths.append(len(data))
        return real(data, *args)

    monkeypatch.setattr(sniff_module, "next_meta", counting)
    links = b"<link rel='stylesheet' href='/x.css'>" * 100_000
    assert sniff_module.leading_meta(b"<html><head><!-- charset -->" + links) is None
    found = sniff_module.leading_meta(b"<html><head><meta charset='utf-8'>" + links)
    assert found is not None and found[0].encoding.name == "UTF-8"
    assert lengths and max(lengths) <= PRESCAN_LIMIT


@pytest.mark.parametrize(
    "meta",
    [b"<meta charset=iso-8859-15>", b"<meta charset=koi8-u>", b'<meta charset="iso-8859-15">',
     b"<meta charset=iso-8859-15 >", b"<meta charset=utf-8>",
     b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">',
     b"<meta http-equiv=Content-Type content=text/html;charset=koi8-u>"],
)  # fmt: skip
@pytest.mark.parametrize("limit", [PRESCAN_LIMIT, 4096])
@pytest.mark.parametrize("filler", [b"x", b"<link rel=x>"])
def test_a_meta_cut_by_the_prefix_end_is_decided_as_the_general_rules_decide(
    meta: bytes, limit: int, filler: bytes
) -> None:
    """A <meta> straddling byte ``limit``, cut at every place (a label's prefix such as
    ``iso-8859-1`` or ``koi8`` is itself a label): the leading decision, where there is one,
    is the general rules' decision on the whole body (past 1,024 bytes in <head>: a late
    <meta>, with <link> tags before it)."""
    decided = 0
    for cut in range(len(meta)):  # cut 0: the <meta> ends at byte ``limit``
        pad = limit - (len(meta) - cut) - len(b"<html><head>")
        fill = filler * (pad // len(filler)) + b" " * (pad % len(filler))
        body = b"<html><head>" + fill + meta + "<p>café €</p>".encode("iso-8859-15")
        found = sniff_module.leading_meta(body, limit)
        if found is not None:
            decided += 1
            assert found[0] == sniff(body, "text/html"), cut
    assert decided == 1  # where the <meta> ends within the limit (cut 0)
