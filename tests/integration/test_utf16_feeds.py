"""UTF-16 pages and feeds in real crawls: a spider that reads the body with
``response.encoding`` (XMLFeedSpider's default iterator hands both to libxml2, a callback may
decode the body itself) reads at least what it reads in stock Scrapy.

A UTF-16 response's ``encoding`` is the plugin's UTF-16 codec, which decodes UTF-16 and
encodes UTF-8 (the Encoding Standard's output encoding, what a browser writes URLs and forms
in): it both reads the body and writes the page's links as a browser does.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.test_middleware_support import version_settings
from tests.support.crawl import run_crawl
from tests.support.scrapy_compat import W3LIB_STANDARD
from tests.support.server import LocalServer, html

FEED_SPIDER = "tests.support.spiders:FeedSpider"
TITLES = ["日本語のテキスト", "Crème brûlée", "Съешь же ещё"]


def feed(declaration: str = 'encoding="utf-16"') -> str:
    items = "".join(f"<item><t>{title}</t></item>" for title in TITLES)
    return f'<?xml version="1.0" {declaration}?><rss><channel>{items}</channel></rss>'


# (path, body, Content-Type): UTF-16 with a BOM, with a charset and no BOM, as XML and as HTML.
FEEDS = [
    ("/le-bom.xml", b"\xff\xfe" + feed().encode("utf-16-le"), "text/xml"),
    ("/be-bom.xml", b"\xfe\xff" + feed().encode("utf-16-be"), "application/rss+xml"),
    ("/le-header.xml", feed().encode("utf-16-le"), "text/xml; charset=utf-16le"),
    ("/le-bom-charset.xml", b"\xff\xfe" + feed().encode("utf-16-le"), "text/xml; charset=utf-16"),
    ("/le-charset.xml", feed().encode("utf-16-le"), "text/xml; charset=utf-16"),
    ("/le-charset.html", feed().encode("utf-16-le"), "text/html; charset=UTF-16"),
    ("/le-bom.html", b"\xff\xfe" + feed().encode("utf-16-le"), "text/html"),
    ("/be-header.html", feed().encode("utf-16-be"), "text/html; charset=utf-16be"),
]


@pytest.fixture(scope="module")
def results() -> Any:
    with LocalServer() as server:
        for path, body, content_type in FEEDS:
            server.add(path, html(body, content_type))
        urls = [server.url(path) for path, _, _ in FEEDS]
        by_run = {}
        for run, settings in {
            "stock": {},
            "plugin": {
                "ADDONS": {"scrapy_charset.Addon": 0},
                "CHARSET_RESPONSE_TYPES": "html, xml",
            },
        }.items():
            result = run_crawl(
                FEED_SPIDER, {"LOG_LEVEL": "INFO", **version_settings(), **settings}, {"urls": urls}
            )
            items: dict[str, list[dict[str, Any]]] = {path: [] for path, _, _ in FEEDS}
            for item in result.items:
                items[item["url"].rsplit("/", 1)[-1].join(["/", ""])].append(item)
            by_run[run] = (items, result)
        yield by_run


@pytest.mark.parametrize("path", [path for path, _, _ in FEEDS])
def test_every_node_of_a_utf16_feed_is_read(results: Any, path: str) -> None:
    items, result = results["plugin"]
    assert [item["t"] for item in items[path]] == TITLES, result.log
    assert {item["encoding"] for item in items[path]} <= {
        "scrapy-charset-utf-16le",
        "scrapy-charset-utf-16be",
    }
    # The body decodes with response.encoding, to the text (a BOM is kept, as Python's
    # codecs keep it).
    assert {item["decoded"].lstrip("\ufeff") for item in items[path]} == {feed()}


def test_never_fewer_nodes_than_stock_scrapy(results: Any) -> None:
    stock, _ = results["stock"]
    ours, result = results["plugin"]
    for path, _, _ in FEEDS:
        assert len(ours[path]) >= len(stock[path]), path
    # Stock Scrapy reads those whose charset is "utf-16", a name libxml2 knows, not the others
    # (its "utf-16-le", from a BOM or a header, is no libxml2 name: LookupError); from w3lib
    # 2.6 on, which names every UTF-16 charset "utf-16-le" or "utf-16-be", none.
    assert sum(map(len, stock.values())) < sum(map(len, ours.values()))
    assert (sum(map(len, stock.values())) == 0) is W3LIB_STANDARD
    assert result.stat("log_count/ERROR") == 0, result.log
    # Every feed was taken over (a source counted for each): by its BOM, or by its header.
    sources = {k: v for k, v in result.stats.items() if k.startswith("charset/source/")}
    assert sources == {"charset/source/bom": 4, "charset/source/header": 4}, sources
