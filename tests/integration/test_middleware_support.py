"""Helpers shared by the middleware, add-on and crawl tests (no tests of its own)."""

from __future__ import annotations

import gzip
import json
import logging
from functools import cache
from pathlib import Path
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import Headers, Request, Response
from scrapy.responsetypes import responsetypes
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.middleware import CharsetMiddleware

CHROMIUM = Path(__file__).resolve().parents[1] / "data" / "chromium" / "textdecoder"
SCRAPY_VERSION = tuple(int(part) for part in scrapy.__version__.split(".")[:2])


def version_settings() -> dict[str, Any]:
    """Settings an old Scrapy needs to run without deprecation warnings."""
    if SCRAPY_VERSION < (2, 12):
        return {"REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7"}
    return {}


def make_crawler(settings: dict[str, Any] | None = None, spidercls: type | None = None) -> Crawler:
    before = set(logging.root.handlers)
    crawler = get_crawler(spidercls, settings_dict={**version_settings(), **(settings or {})})
    # Scrapy < 2.13 adds the handler counting log lines (log_count/...) to the root logger
    # here, and removes it when the crawler's engine stops: a crawler that never crawls keeps
    # it for good, and after the thousands a property test makes, every log call walked
    # thousands of handlers (the `min` suite ran 8 minutes longer). As Scrapy's LogCount
    # extension does now, it is on the root logger while the engine runs only.
    added = [handler for handler in logging.root.handlers if handler not in before]
    for handler in added:
        logging.root.removeHandler(handler)
    if added:

        def start_counting() -> None:
            for handler in added:
                logging.root.addHandler(handler)

        # (Held by the crawler: signals keep only weak references to their receivers.)
        setattr(crawler, "_log_count_start", start_counting)  # noqa: B010
        crawler.signals.connect(start_counting, signal=signals.engine_started)
    return crawler


def build(cls: type, crawler: Crawler) -> Any:
    """``build_from_crawler`` where Scrapy has it (2.12+), else ``from_crawler``."""
    try:
        from scrapy.utils.misc import build_from_crawler
    except ImportError:
        return cls.from_crawler(crawler)
    return build_from_crawler(cls, crawler)


def middleware(settings: dict[str, Any] | None = None) -> tuple[CharsetMiddleware, Crawler]:
    crawler = make_crawler(settings)
    return build(CharsetMiddleware, crawler), crawler


def response_for(
    url: str,
    body: bytes,
    content_type: str | bytes | list[str | bytes] | None = "text/html",
    *,
    status: int = 200,
    method: str = "GET",
    meta: dict[str, Any] | None = None,
) -> tuple[Request, Response]:
    """The request and the response (of the class Scrapy's downloader would pick)."""
    headers = Headers()
    if content_type is not None:
        headers["Content-Type"] = content_type
    request = Request(url, method=method, meta=dict(meta or {}))
    cls = responsetypes.from_args(headers=headers, url=url, body=body)
    response = cls(url=url, status=status, headers=headers, body=body, request=request)
    return request, response


def stock_text(response: Response) -> str:
    """What stock Scrapy gives as ``response.text`` for the same bytes and headers."""
    fresh = type(response)(url=response.url, headers=response.headers, body=response.body)
    return fresh.text  # type: ignore[attr-defined, no-any-return]


def charset_stats(crawler: Crawler) -> dict[str, Any]:
    assert crawler.stats is not None
    return {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("charset/")}


@cache
def chromium_cases(encoding: str) -> tuple[tuple[bytes, str], ...]:
    """``(input bytes, Chromium's TextDecoder output)`` recorded from a real browser."""
    with gzip.open(CHROMIUM / f"{encoding}.jsonl.gz", "rt", encoding="utf-8") as fh:
        lines = fh.read().split("\n")[1:]
    cases = []
    for line in filter(None, lines):
        hex_input, fatal, output = json.loads(line)
        if not fatal:
            cases.append((bytes.fromhex(hex_input), output))
    return tuple(cases)


def chromium_page(encoding: str, every: int = 1) -> tuple[bytes, str]:
    """A body of browser-recorded cases, one per line, and the text the browser decoded.

    Only cases that decode without state spilling into the next line are used: whole valid
    sequences, and single bytes (a lone lead byte then ``\\n`` gives U+FFFD then ``\\n``, as
    at the end of the input). Never used for ISO-2022-JP or UTF-16, whose state does spill.
    """
    chosen = [
        (data, text)
        for index, (data, text) in enumerate(chromium_cases(encoding))
        if data and (len(data) == 1 or ("\ufffd" not in text and index % every == 0))
    ]
    body = b"\n".join(data for data, _ in chosen)
    text = "\n".join(text for _, text in chosen)
    return body, text
