"""Calls into Scrapy whose form changed between the oldest supported Scrapy (2.11) and now."""

from __future__ import annotations

import inspect
from typing import Any

import scrapy


def open_stats(crawler: Any) -> None:
    """Open the crawler's stats collector as the engine does.

    Scrapy 2.11 requires the spider (``open_spider(spider)``); newer Scrapy takes none and
    warns when given one.
    """
    open_spider = crawler.stats.open_spider
    spider = inspect.signature(open_spider).parameters.get("spider")
    if spider is not None and spider.default is inspect.Parameter.empty:
        open_spider(scrapy.Spider("charset-test"))
    else:
        open_spider()
