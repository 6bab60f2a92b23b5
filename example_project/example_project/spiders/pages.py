"""Crawl the scrapy-charset demo site and extract each page's title and text."""

from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.http import Response

from scrapy_charset.tools.demo_site import DemoSite

from ..items import PageItem


class PagesSpider(scrapy.Spider):
    """``scrapy crawl pages [-a base_url=http://127.0.0.1:PORT]``.

    Without ``base_url`` the spider serves the bundled demo site itself on 127.0.0.1 for the
    length of the crawl.
    """

    name = "pages"

    def __init__(self, base_url: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site: DemoSite | None = None
        if base_url is None:
            self.site = DemoSite().start()
            base_url = self.site.base_url
        self.start_urls = [base_url.rstrip("/") + "/"]

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        yield from response.follow_all(css="a", callback=self.parse_page)

    def parse_page(self, response: Response) -> Iterator[PageItem]:
        decision = getattr(response, "charset_decision", None)
        yield PageItem(
            url=response.url,
            title=response.css("title::text").get(),
            text=response.css("#s::text").get(),
            encoding=decision.encoding.name if decision is not None else response.encoding,
            decided_by=str(decision.source) if decision is not None else None,
        )

    def closed(self, reason: str) -> None:
        if self.site is not None:
            self.site.stop()
