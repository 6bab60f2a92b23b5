"""The in-<head> <meta> scan is bounded, so a hostile body costs a fixed amount per response."""

from __future__ import annotations

from scrapy_charset.sniffing import Source, sniff
from scrapy_charset.sniffing.sniff import LATE_META_LIMIT


def _page_with_meta_after(script_bytes: int) -> bytes:
    script = b"<script>" + b"var a = 1;\n" * (script_bytes // 11) + b"</script>"
    return b"<html><head>" + script + b'<meta charset="koi8-r"></head><body>\xf0\xd2'


def test_meta_after_200kb_of_head_script_is_found() -> None:
    decision = sniff(_page_with_meta_after(200 * 1024))
    assert (decision.encoding.name, decision.source) == ("KOI8-R", Source.LATE_META)


def test_meta_past_the_scan_limit_is_not_found() -> None:
    body = _page_with_meta_after(LATE_META_LIMIT)
    assert body.index(b"<meta") > LATE_META_LIMIT
    decision = sniff(body)
    assert decision.source is not Source.LATE_META
