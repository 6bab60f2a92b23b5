"""Download middlewares that build responses themselves, as browser-rendering plugins do.

Each fetches the page from the local test server, "renders" it (the browser's text, as a DOM
serialization would give it) and returns a response built the way the named plugin builds one:

- Selenium middlewares (scrapy-selenium and most in-house ones):
  ``HtmlResponse(url, body=driver.page_source.encode("utf-8"), encoding="utf-8")``;
- scrapy-playwright's download handler: the DOM text encoded with the header's charset, else the
  ``<meta>`` charset found in the DOM text, else UTF-8 (the first that can encode it), the
  response built by ``responsetypes`` with ``encoding=`` that codec and ``flags=["playwright"]``;
- scrapy-zyte-api (browserHtml): its own ``HtmlResponse`` subclass, ``encoding="utf-8"``;
- scrapy-splash: at 725, its ``process_response`` turns what Splash answered (the DOM as UTF-8
  with ``Content-Type: text/html; charset=utf-8`` from render.html; JSON with an ``html`` key
  from render.json) into its own classes: ``response.replace(cls=SplashTextResponse)``, a
  ``TextResponse`` subclass, or a ``Response`` subclass whose ``text`` is the JSON's ``html``.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from scrapy.http import Headers, HtmlResponse, Request, Response, TextResponse
from scrapy.responsetypes import responsetypes
from scrapy.utils.python import to_unicode
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding

from scrapy_charset.sniffing import decode_html


def render(url: str) -> tuple[str, Headers]:
    """The page's DOM text (as the browser decoded it) and the server's headers."""
    with urllib.request.urlopen(url) as reply:  # noqa: S310 (the local test server)
        body = reply.read()
        headers = Headers(list(reply.headers.items()))
    text, _ = decode_html(body, headers.getlist(b"Content-Type"), url=url)
    return text, headers


class SeleniumStyleMiddleware:
    def process_request(self, request: Request, spider: Any = None) -> HtmlResponse:
        text, _ = render(request.url)
        return HtmlResponse(
            request.url, body=text.encode("utf-8"), encoding="utf-8", request=request
        )


def _playwright_encode(headers: Headers, text: str) -> tuple[bytes, str]:
    candidates = []
    if headers.get("Content-Type"):
        candidates.append(http_content_type_encoding(to_unicode(headers["Content-Type"])))
    candidates.append(html_body_declared_encoding(text))
    for encoding in filter(None, candidates):
        try:
            return text.encode(encoding), encoding
        except UnicodeEncodeError:
            pass
    return text.encode("utf-8"), "utf-8"


class PlaywrightStyleMiddleware:
    def process_request(self, request: Request, spider: Any = None) -> Any:
        text, headers = render(request.url)
        body, encoding = _playwright_encode(headers, text)
        cls = responsetypes.from_args(headers=headers, url=request.url, body=body)
        return cls(
            url=request.url,
            status=200,
            headers=headers,
            body=body,
            request=request,
            flags=["playwright"],
            encoding=encoding,
        )


class ZyteApiStyleResponse(HtmlResponse):
    """Stands for scrapy-zyte-api's ``ZyteAPITextResponse`` (an ``HtmlResponse`` subclass)."""


class ZyteApiStyleMiddleware:
    def process_request(self, request: Request, spider: Any = None) -> HtmlResponse:
        text, headers = render(request.url)
        return ZyteApiStyleResponse(
            url=request.url,
            status=200,
            body=text.encode("utf-8"),
            encoding="utf-8",
            request=request,
            flags=["zyte-api"],
            headers=headers,
        )


class SplashStyleTextResponse(TextResponse):
    """Stands for scrapy-splash's ``SplashTextResponse`` (a ``TextResponse`` subclass)."""


class SplashStyleJsonResponse(Response):
    """Stands for scrapy-splash's ``SplashJsonResponse``: a ``Response`` whose ``text`` is the
    ``html`` of Splash's JSON, decoded as UTF-8."""

    @property
    def encoding(self) -> str:
        return "utf8"

    @property
    def text(self) -> str:
        return str(json.loads(self.body.decode("utf-8"))["html"])

    def css(self, query: str) -> Any:
        from scrapy import Selector

        return Selector(text=self.text, type="html").css(query)


class SplashStyleMiddleware:
    """Splash's answer for the page from render.html (the request went to the page itself
    here), as scrapy-splash's middleware turns it into its class."""

    endpoint = "render.html"

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        text, _ = render(request.url)
        if self.endpoint == "render.json":
            body = json.dumps({"url": request.url, "html": text}).encode("utf-8")
            headers = {"Content-Type": "application/json"}
            return SplashStyleJsonResponse(request.url, body=body, headers=headers, request=request)
        # What the Splash server answers, as Scrapy's downloader builds it, recast to
        # scrapy-splash's class.
        headers = {"Content-Type": "text/html; charset=utf-8"}
        answer = HtmlResponse(request.url, body=text.encode("utf-8"), headers=headers)
        return answer.replace(cls=SplashStyleTextResponse, request=request)


class SplashJsonStyleMiddleware(SplashStyleMiddleware):
    """The same from render.json."""

    endpoint = "render.json"
