"""The chaos spider and the faults injected into the plugin through its own settings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.http import HtmlResponse, TextResponse, XmlResponse


class ChaosSpider(scrapy.Spider):
    """Request every case of the chaos site; record where each response ended up.

    ``cases`` is a list of ``[case_id, path, meta]``. The callback reads the text the way a
    spider does (``.text``, CSS, XPath) so a broken response object shows up as a lost item.
    """

    name = "chaos"

    def __init__(self, base: str = "", cases: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.base = base
        self.cases = list(cases or [])

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> ChaosSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.callback_raised, signal=signals.spider_error)
        return spider

    def callback_raised(self, failure: Any, response: Any, spider: Any) -> None:
        """Record which case's callback raised (Scrapy's stats name only the exception)."""
        self.crawler.stats.inc_value(f"chaos/spider_error/{response.meta['case']}")

    async def start(self) -> Any:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for case_id, path, meta in self.cases:
            meta = dict(meta)
            method = meta.pop("method", "GET")
            meta["case"] = case_id
            yield scrapy.Request(
                self.base + path,
                method=method,
                meta=meta,
                callback=self.parse,
                errback=self.failed,
                dont_filter=True,
            )

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        item: dict[str, Any] = {
            "case": response.meta["case"],
            "outcome": "callback",
            "status": response.status,
            "kind": response_kind(response),
            "body_len": len(response.body),
            "flags": list(response.flags),
        }
        if isinstance(response, TextResponse):
            text = response.text
            item["text_len"] = len(text)
            item["text_head"] = text[:300]
            item["encoding"] = response.encoding
            # URL building and re-decoding a cut body use the response's encoding too.
            item["follow_url"] = response.follow("/next?q=a b&r=%E9#x").url
            item["cut_text"] = response.replace(body=response.body[:7]).text
            try:
                item["title"] = response.css("title::text").get()
                item["links"] = response.xpath("//a/@href").getall()
                item["scripts"] = len(response.css("script"))
            except ValueError as exc:  # e.g. CSS on a JSON response: Scrapy's own refusal
                item["select_error"] = type(exc).__name__
        yield item
        # An item full of odd values for the pipeline; it must come through as it went in.
        yield {
            "case": response.meta["case"],
            "outcome": "odd-item",
            "raw": response.body[:64],
            "none": None,
            "nested": {"a": [{"b": response.body[:40].decode("latin-1")}, None, 1.5, True]},
            "empty": "",
            "replacement": "\ufffd" * 3,
        }

    def failed(self, failure: Any) -> Iterator[dict[str, Any]]:
        response = getattr(failure.value, "response", None)
        yield {
            "case": failure.request.meta["case"],
            "outcome": "errback",
            "error": failure.type.__name__,
            "status": getattr(response, "status", None),
        }


def response_kind(response: Any) -> str:
    """The response class family a spider can rely on (the plugin may use a subclass)."""
    for cls, kind in ((HtmlResponse, "html"), (XmlResponse, "xml"), (TextResponse, "text")):
        if isinstance(response, cls):
            return kind
    return "raw"


class FaultyDetector:
    """A ``Detector`` that fails on purpose: it raises for bodies with byte 0xE9 in them and
    breaks its protocol for the others (a Python codec name, not an Encoding)."""

    def detect(self, data: bytes, *, tld: str | None) -> Any:
        if b"\xe9" in data:
            raise RuntimeError("detector exploded on purpose")
        return "utf-7"
