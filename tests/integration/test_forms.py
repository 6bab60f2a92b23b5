"""``scrapy_charset.form2request``: form2request's fields with the bytes Chromium sent.

Same fixture as ``test_chromium_urls.py``: every encoding, GET, POST urlencoded and
multipart/form-data forms with one field per sample character (and a textarea with line
breaks, which browsers send as CRLF).
"""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from scrapy_charset.integration.forms import form2request, multipart, urlencode

from .test_chromium_urls import PAGES, _ids, responses


def _form_request(page: dict[str, Any], formid: str) -> Any:
    _, plugin = responses(page)
    return form2request(plugin.css(f"form#{formid}"), encoding=plugin.encoding)


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_get_form_url_is_chromiums(page: dict[str, Any]) -> None:
    request = _form_request(page, "get")
    assert request.method == "GET"
    parts = urlsplit(request.url)
    assert parts.path + "?" + parts.query == page["chromium"]["get"]


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_post_urlencoded_body_is_chromiums(page: dict[str, Any]) -> None:
    request = _form_request(page, "post")
    assert request.method == "POST"
    assert request.body == page["chromium"]["post"].encode("latin-1")
    assert dict(request.headers)["Content-Type"] == "application/x-www-form-urlencoded"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_multipart_body_is_chromiums(page: dict[str, Any]) -> None:
    request = _form_request(page, "multi")
    content_type = dict(request.headers)["Content-Type"]
    match = re.fullmatch(r"multipart/form-data; boundary=(\S+)", content_type)
    assert match is not None
    body = request.body.replace(match.group(1).encode(), b"BOUNDARY")
    assert body == base64.b64decode(page["chromium"]["multipart_b64"])


def test_to_scrapy_keeps_the_bytes() -> None:
    page = next(p for p in PAGES if p["encoding"] == "EUC-JP")
    request = _form_request(page, "get").to_scrapy(callback=None)
    assert urlsplit(request.url).query == urlsplit(page["chromium"]["get"]).query.replace(
        "%7E", "~"  # w3lib's safe_url_string unescapes nothing else here
    ) or request.url.endswith(page["chromium"]["get"])


def test_serializers_directly() -> None:
    assert urlencode([("q", "東京～ é*~\n")], "EUC-JP") == (
        "q=%C5%EC%B5%FE%A1%C1+%26%23233%3B*%7E%0D%0A"
    )
    body, content_type = multipart([('a"\n', "～\r")], "Big5", boundary="XX")
    assert content_type == "multipart/form-data; boundary=XX"
    assert body == (
        b'--XX\r\nContent-Disposition: form-data; name="a%22%0D%0A"\r\n\r\n\xa1\xe3\r\n\r\n'
        b"--XX--\r\n"
    )
