"""Calls into Scrapy whose form changed between the oldest supported Scrapy (2.11) and now,
and what stock Scrapy decodes with, which changed with w3lib 2.6."""

from __future__ import annotations

import inspect
from typing import Any

import scrapy
import w3lib

# From w3lib 2.6 on, stock Scrapy decodes as the Encoding Standard: labels a browser does not
# know are ignored, every other one decodes with the standard's decoder (windows-1252's 0x81
# is U+0081, not U+FFFD), a UTF-32LE BOM reads as UTF-16LE's, a <meta> naming UTF-16 as UTF-8.
# Before, with Python's codecs. Told by the version, not by the feature the package tests.
W3LIB_STANDARD = tuple(int(part) for part in w3lib.__version__.split(".")[:2]) >= (2, 6)


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
