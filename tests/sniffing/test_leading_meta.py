"""sniffing.leading_meta: the decision of a leading <meta charset>, read from a prefix."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.sniffing import sniff
from scrapy_charset.sniffing.prescan import PRESCAN_LIMIT

sniff_module = importlib.import_module("scrapy_charset.sniffing.sniff")

_PIECES = [
    b"<meta charset='utf-8'>", b'<META CHARSET="koi8-r" />', b'<meta charset="bogus">',
    b'<meta http-equiv="content-type" content="text/html; charset=gbk">', b"<!-- x -->",
    b"<script>", b"</script>", b"<title>", b"</title>", b"<body>", b"<p>", b"<", b">", b"'",
    b'"', b"x" * 700, b"<meta charset=euc-jp>", b"<?xml version='1.0' encoding='latin1'?>",
    b"\x00", b"<link rel=x>", b"</head>",
]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10))
def test_leading_meta_is_the_general_rules_decision(pieces: list[bytes]) -> None:
    body = b"".join(pieces)
    found = sniff_module.leading_meta(body)
    if found is not None:
        decision, start = found
        assert decision == sniff(body, "text/html")
        assert body[start : start + 5].lower() == b"<meta"


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
     b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">'],
)  # fmt: skip
def test_a_meta_cut_by_the_prefix_end_is_decided_as_the_general_rules_decide(meta: bytes) -> None:
    """A <meta> straddling byte 1,024, cut at every place (a label's prefix such as
    ``iso-8859-1`` or ``koi8`` is itself a label): the leading decision, where there is one,
    is the general rules' decision on the whole body."""
    decided = 0
    for cut in range(len(meta)):  # cut 0: the <meta> ends at byte 1,024
        pad = PRESCAN_LIMIT - (len(meta) - cut) - len(b"<html><head>")
        body = b"<html><head>" + b"x" * pad + meta + "<p>café €</p>".encode("iso-8859-15")
        found = sniff_module.leading_meta(body)
        if found is not None:
            decided += 1
            assert found[0] == sniff(body, "text/html"), cut
    assert decided >= 1 or b"http-equiv" in meta  # (one without a charset attribute)
