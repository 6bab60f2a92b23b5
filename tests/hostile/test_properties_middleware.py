"""Property tests for the middleware: any response comes out whole, with the browser's text."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from scrapy import Request
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from scrapy_charset.encoding import REPLACEMENT, lookup
from scrapy_charset.integration.middleware import CharsetMiddleware
from scrapy_charset.sniffing import decode_html
from tests.hostile.strategies import hostile_label, present_header_value
from tests.hostile.test_properties_sniffing import bodies

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# HTML most often: that is what the middleware takes over.
RESPONSE_CLASSES = (HtmlResponse, HtmlResponse, HtmlResponse, XmlResponse, TextResponse, Response)


@functools.cache
def middleware() -> CharsetMiddleware:
    return CharsetMiddleware.from_crawler(get_crawler())


content_types = st.lists(present_header_value, max_size=3)
metas = st.fixed_dictionaries(
    {},
    optional={"dont_charset": st.booleans(),
              "charset_encoding": st.one_of(hostile_label, st.integers(), st.none())},
)


@FAST
@given(
    body=bodies,
    content_type=content_types,
    cls=st.sampled_from(RESPONSE_CLASSES),
    status=st.sampled_from([200, 200, 200, 200, 404, 500, 204, 301, 304]),
    method=st.sampled_from(["GET", "GET", "POST", "HEAD"]),
    url=st.sampled_from(["http://example.com/a", "http://example.jp/", "http://xn--p1ai/x",
                         "https://例え.テスト/ページ?q=1"]),
    meta=metas,
)
def test_any_response_comes_out_whole(
    body: bytes, content_type: list[Any], cls: type[Response], status: int, method: str,
    url: str, meta: dict[str, Any],
) -> None:
    request = Request(url, method=method, meta=dict(meta))
    headers = {"Content-Type": content_type} if content_type else {}
    response = cls(url, status=status, body=body, headers=headers, request=request)
    out = middleware().process_response(request, response)

    # The same response as far as Scrapy routing is concerned, raw bytes untouched.
    assert isinstance(out, cls)
    assert (out.url, out.status, out.body, out.request) == (url, status, body, request)
    assert out.headers is response.headers or out.headers == response.headers
    taken = [flag for flag in out.flags if flag.startswith("charset:")]
    event(taken[0] if taken else "left to Scrapy")
    if not taken:
        assert out is response
        return
    assert cls is HtmlResponse and body and method != "HEAD" and not 300 <= status < 400
    assert not meta.get("dont_charset")
    label = meta.get("charset_encoding")
    forced = lookup(label) if isinstance(label, str) else None
    if forced == REPLACEMENT:  # (no page is read in it: ignored like an unknown label)
        forced = None
    expected, decision = decode_html(body, response.headers.getlist(b"Content-Type"), url=url,
                                     forced=forced)
    assert out.text == expected
    assert out.charset_decision == decision
    assert request.meta["charset_decision"] == decision.as_record()
    # Selectors and re-decoding work on whatever the bytes were.
    out.css("p::text").getall()
    assert out.replace(body=body).text == expected
