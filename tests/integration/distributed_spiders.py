"""The spider the distributed and JOBDIR crawl tests run (importable by the crawl children)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider

from tests.support.chromium import marker_in_source as marker


class SiteSpider(scrapy.Spider):
    """Fetch ``urls``; on each page follow ``a.copy`` links with ``meta=dict(response.meta)``
    (what many spiders do) and yield what the callback sees.

    With the ``DIST_DONE_KEY`` setting (scrapy-redis workers) the spider stays open while idle
    until that Redis key exists: a worker with an empty share of the queue must not stop
    while another worker may still add requests.
    """

    name = "charset_site"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = list(urls or [])

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> SiteSpider:
        spider: SiteSpider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.idle, signal=signals.spider_idle)
        return spider

    async def start(self) -> Any:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        # Filtered like any other request: several workers (or a resumed job) start alike.
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse, errback=self.failed)

    def parse(self, response: Any) -> Iterator[Any]:
        yield {
            "url": response.url,
            "status": response.status,
            "marker": marker(response.text),
            "css_marker": "".join(response.css("#m ::text").getall()),
            "meta_decision": response.meta.get("charset_decision"),
            "worker": self.settings.get("DIST_WORKER"),
        }
        for href in response.css("a.copy::attr(href)").getall():
            yield response.follow(
                href, meta=dict(response.meta), callback=self.parse, errback=self.failed
            )

    def failed(self, failure: Any) -> Iterator[dict[str, Any]]:
        yield {
            "url": failure.request.url,
            "error": failure.type.__name__,
            "meta_decision": failure.request.meta.get("charset_decision"),
            "worker": self.settings.get("DIST_WORKER"),
        }

    def idle(self) -> None:
        key = self.settings.get("DIST_DONE_KEY")
        if not key:
            return
        from scrapy_redis.connection import get_redis_from_settings

        if not get_redis_from_settings(self.settings).exists(key):
            raise DontCloseSpider
