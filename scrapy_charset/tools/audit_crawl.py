"""Fetch the audit's URLs through Scrapy, with the project's settings, and hand over raw pages."""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import nullcontext, redirect_stderr
from typing import TYPE_CHECKING, Any, TextIO

import scrapy
from scrapy.spidermiddlewares.httperror import HttpError

from .audit_inputs import KIND_URL, Page, describe_error, failed, skip_reason

if TYPE_CHECKING:
    from scrapy.http import Response
    from scrapy.settings import Settings
    from twisted.python.failure import Failure

Sink = Callable[[Page], object]

# Applied below the project's own settings (Scrapy's defaults have the same priority), so a
# project's choices win; outside a project they keep an audit crawl polite.
POLITE_DEFAULTS: dict[str, Any] = {
    "ROBOTSTXT_OBEY": True,
    "AUTOTHROTTLE_ENABLED": True,
    "AUTOTHROTTLE_START_DELAY": 1.0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
}


class AuditSpider(scrapy.Spider):
    """Requests each URL once and passes the raw response (or the failure) to ``sink``."""

    name = "charset_audit"

    def __init__(
        self,
        urls: Sequence[str] = (),
        sink: Sink | None = None,
        skip_non_html: bool = True,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.urls = list(urls)
        self.sink: Sink = sink or (lambda page: None)
        self.skip_non_html = skip_non_html

    async def start(self) -> AsyncIterator[Any]:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for url in self.urls:
            try:
                request = scrapy.Request(
                    url,
                    callback=self.parse,
                    errback=self.failed,
                    dont_filter=True,
                    # Raw bytes: a charset middleware in the project must not touch them.
                    meta={"dont_charset": True, "charset_audit_url": url},
                )
            except (ValueError, TypeError) as exc:
                self.sink(failed(KIND_URL, url, f"bad URL: {describe_error(exc)}", url))
                continue
            yield request

    def parse(self, response: Response, **kwargs: Any) -> None:
        self.sink(page_from_response(response, self.skip_non_html))

    def failed(self, failure: Failure) -> None:
        request = failure.request  # type: ignore[attr-defined]
        origin = request.meta.get("charset_audit_url", request.url)
        if failure.check(HttpError):
            response = failure.value.response
            page = failed(KIND_URL, origin, f"HTTP status {response.status}", response.url)
            page.status = response.status
        else:
            error = f"fetch failed: {describe_error(failure.value)}"
            page = failed(KIND_URL, origin, error, origin)
        self.sink(page)


def page_from_response(response: Response, skip_non_html: bool = True) -> Page:
    content_types = tuple(
        value.decode("latin-1") for value in response.headers.getlist(b"Content-Type")
    )
    # Error statuses never get here (they are failures); only the media type can skip.
    skipped = skip_reason(None, content_types) if skip_non_html else None
    return Page(
        skipped=skipped,
        kind=KIND_URL,
        origin=response.meta.get("charset_audit_url", response.url),
        body=response.body,
        content_types=content_types,
        url=response.url,
        status=response.status,
    )


def apply_polite_defaults(settings: Settings) -> None:
    for name, value in POLITE_DEFAULTS.items():
        settings.set(name, value, priority="default")


def make_crawler_process(settings: Settings) -> Any:
    """The process ``scrapy crawl`` would use for these settings."""
    from scrapy import crawler

    async_process = getattr(crawler, "AsyncCrawlerProcess", None)
    asyncio_reactor = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
    if async_process is not None and (
        (
            settings.get("TWISTED_REACTOR") == asyncio_reactor
            and not settings.getbool("FORCE_CRAWLER_PROCESS")
        )
        or not settings.getbool("TWISTED_REACTOR_ENABLED", True)
    ):
        return async_process(settings)
    return crawler.CrawlerProcess(settings)


def crawl(
    urls: Sequence[str],
    settings: Settings,
    sink: Sink,
    process: Any = None,
    skip_non_html: bool = True,
    log_stream: TextIO | None = None,
) -> None:
    """Fetch ``urls`` with ``settings`` (blocking until done), calling ``sink`` once per URL.

    ``log_stream``: where Scrapy's log lines to stderr go instead (the progress display's
    stream, which keeps them off the progress line)."""
    if not urls:
        return
    apply_polite_defaults(settings)
    # Scrapy makes its log handlers on sys.stderr as the process starts and as each crawler
    # does: they write through ``log_stream`` when made while it stands for sys.stderr.
    stderr = sys.stderr
    with redirect_stderr(log_stream) if log_stream is not None else nullcontext():
        _crawl(urls, settings, sink, process, skip_non_html, log_stream, stderr)


def _crawl(
    urls: Sequence[str],
    settings: Settings,
    sink: Sink,
    process: Any,
    skip_non_html: bool,
    log_stream: TextIO | None,
    stderr: TextIO,
) -> None:
    if process is None:
        process = make_crawler_process(settings)
    if log_stream is not None:
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and handler.stream is stderr:
                handler.setStream(log_stream)
    pending = list(dict.fromkeys(urls))
    reported: set[str] = set()

    def report(page: Page) -> None:
        reported.add(page.origin)
        sink(page)

    process.crawl(AuditSpider, urls=pending, sink=report, skip_non_html=skip_non_html)
    process.start()
    # A crawl stopped early (Ctrl-C, CLOSESPIDER_*, a shutdown) still accounts for every URL.
    for url in pending:
        if url not in reported:
            sink(failed(KIND_URL, url, "not fetched: the crawl ended before this URL", url))
