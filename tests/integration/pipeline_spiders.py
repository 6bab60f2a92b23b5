"""Spiders and a small site for the CharsetPipeline crawl tests.

The site is a chain of product pages ``/page?i=0..n-1``; each page links to the next one, so
pages are fetched strictly in order and "the 30th page served" is well defined. A section of a
page can start coming out broken after a given number of pages were served.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import scrapy

from tests.support.server import ReceivedRequest, Reply, html

TITLE = "Crème brûlée n°{i} – « à la française »"
DESCRIPTION = "Die Größe der Portion ist übermäßig; São Paulo adora ação. Þórður fær sér kaffi."
NOTE = "Trả lời nhanh: Türkçe ağaç, İstanbul’da güzel."
AUTHOR = "José Müller-Ødegård"
SKU = "ＳＫＵ－１２３{i}"  # fullwidth letters, hyphen-minus and digits


def utf8(text: str) -> bytes:
    return text.encode("utf-8")


def cp1252(text: str) -> bytes:
    """The text's bytes in windows-1252: not valid UTF-8 wherever a letter is accented."""
    return text.encode("cp1252", errors="strict")


def double_utf8(text: str) -> bytes:
    """UTF-8 bytes that were read as windows-1252 and written out again as UTF-8 (mojibake)."""
    return text.encode("utf-8").decode("cp1252").encode("utf-8")


@dataclass
class Site:
    """The page chain; ``sections`` maps a section to its byte encoder, page by page."""

    pages: int
    sections: dict[str, Callable[[int], bytes]] = field(default_factory=dict)
    served: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: ReceivedRequest) -> Reply:
        i = int(parse_qs(request.query).get("i", ["0"])[0])
        with self.lock:
            order = self.served  # how many pages were served before this one
            self.served += 1
        parts = [b"<!doctype html><html><head><title>"]
        parts += [self.sections["title"](order), b"</title></head><body>"]
        for name, encode in self.sections.items():
            if name != "title":
                parts += [b'<p class="', name.encode(), b'">', encode(order), b"</p>"]
        if i + 1 < self.pages:
            parts.append(b'<a class="next" href="/page?i=%d">next</a>' % (i + 1))
        parts.append(b"</body></html>")
        return html(b"".join(parts), "text/html; charset=utf-8")


def breaks_after(
    pages: int, good: Callable[[int], bytes], bad: Callable[[int], bytes]
) -> Callable[[int], bytes]:
    """A section that is served well for the first ``pages`` pages and broken afterwards."""
    return lambda order: good(order) if order < pages else bad(order)


class ChainSpider(scrapy.Spider):
    """Follow the page chain from ``start_url``, one page at a time, yielding one item per page."""

    name = "pipeline_chain"
    custom_settings = {"CONCURRENT_REQUESTS": 1, "LOG_LEVEL": "INFO"}
    item_class: Any = dict

    def __init__(self, start_url: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_url = start_url

    async def start(self) -> Any:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        yield scrapy.Request(self.start_url, callback=self.parse)

    def parse(self, response: Any) -> Iterator[Any]:
        fields: dict[str, Any] = {"url": response.url, "title": response.css("title::text").get()}
        for name in ("description", "note", "author", "sku"):
            value = response.css(f"p.{name}::text").get()
            if value is not None:
                fields[name] = value
        yield self.item_class(**fields)
        next_page = response.css("a.next::attr(href)").get()
        if next_page:
            yield response.follow(next_page, callback=self.parse)


class ProductItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    description = scrapy.Field()
    author = scrapy.Field()
    sku = scrapy.Field()
    charset_findings = scrapy.Field()


class ProductItemSpider(ChainSpider):
    """The same chain, yielding ``ProductItem`` (a ``scrapy.Item`` declaring the findings field)."""

    name = "pipeline_chain_items"
    item_class = ProductItem
