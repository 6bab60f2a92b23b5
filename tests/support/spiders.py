"""Small spiders shared by the crawl tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import scrapy


class TextSpider(scrapy.Spider):
    """Fetch each of ``urls`` (a JSON list or list) and yield what a callback sees of it."""

    name = "text"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = list(urls or [])

    async def start(self) -> Any:  # Scrapy >= 2.13
        for item_or_request in self.start_requests():
            yield item_or_request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse, errback=self.failed, dont_filter=True)

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        item: dict[str, Any] = {
            "url": response.url,
            "status": response.status,
            "class": type(response).__name__,
            "body_len": len(response.body),
        }
        if hasattr(response, "text"):
            item["encoding"] = response.encoding
            item["text"] = response.text
            item["title"] = response.css("title::text").get()
            item["p"] = response.css("p::text").getall()
            item["meta_decision"] = _decision_repr(response.meta.get("charset_decision"))
        item["flags"] = list(response.flags)
        yield item

    def failed(self, failure: Any) -> Iterator[dict[str, Any]]:
        yield {"url": failure.request.url, "error": failure.type.__name__}


def _decision_repr(decision: Any) -> dict[str, Any] | None:
    if decision is None:
        return None
    return {
        "encoding": decision.encoding.name,
        "source": str(getattr(decision.source, "value", decision.source)),
        "label": decision.label,
    }
