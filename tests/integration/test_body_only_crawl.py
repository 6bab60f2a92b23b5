"""A crawl that never reads the text (archiving bodies) costs no decode with the plugin, as
without it: the middleware decides each page's encoding from its bytes and leaves the text to
be decoded when first wanted. Scrapy's MetaRefreshMiddleware reads every HTML page's text by
default; with it off (or ``dont_redirect``) stock Scrapy decodes nothing, and neither does
the plugin.
"""

from __future__ import annotations

from typing import Any

import pytest
import scrapy

from tests.integration.test_middleware_support import version_settings
from tests.support.crawl import CrawlResult, run_crawl
from tests.support.server import LocalServer, html

RU = "Съешь же ещё этих мягких французских булок, да выпей чаю."
JA = "日本語のテキスト「カタカナ」"
PAGES = {
    "/undeclared-1251": html(f"<p>{RU}</p>".encode("cp1251") * 200, "text/html"),
    "/header-sjis": html(f"<p>{JA}</p>".encode("cp932") * 200, "text/html; charset=shift_jis"),
    "/meta-utf8": html(f"<meta charset=utf-8><p>{JA} \ufffd</p>".encode() * 50, "text/html"),
    "/undeclared-utf8": html(f"<p>{RU}</p>".encode() * 100, "text/html"),
    "/bom-utf16": html("\ufeff<p>é</p>".encode("utf-16-le"), "text/html"),
    "/stray-byte": html(b"<p>caf\xc3\xa9 \xe9</p>" * 30, "text/html; charset=utf-8"),
}
ADDON = {"ADDONS": {"scrapy_charset.Addon": 0}}
SCRAPY_212 = tuple(int(part) for part in scrapy.__version__.split(".")[:2]) >= (2, 12)


@pytest.fixture(scope="module")
def server() -> Any:
    with LocalServer() as server:
        for path, reply in PAGES.items():
            server.add(path, reply)
        yield server


def crawl(server: LocalServer, settings: dict[str, Any], meta: Any = None) -> CrawlResult:
    urls = [server.url(path) for path in PAGES]
    result = run_crawl(
        "tests.support.spiders:BodySpider",
        {"LOG_LEVEL": "INFO", **version_settings(), **settings},
        {"urls": urls},
    )
    assert result.stat("log_count/ERROR") == 0, result.log
    return result


def by_url(result: CrawlResult) -> dict[str, dict[str, Any]]:
    return {item["url"]: item for item in result.items}


META_REFRESH = "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware"
OFF = {
    "setting": {"METAREFRESH_ENABLED": False},
    "none": {"DOWNLOADER_MIDDLEWARES": {META_REFRESH: None}},
}


@pytest.mark.parametrize("off", OFF.values(), ids=OFF.keys())
def test_a_body_only_crawl_decodes_nothing_with_or_without_the_plugin(
    server: LocalServer, off: dict[str, Any]
) -> None:
    stock = by_url(crawl(server, off))
    result = crawl(server, {**ADDON, **off})
    ours = by_url(result)
    assert set(ours) == set(stock) and len(ours) == len(PAGES)
    for url, item in ours.items():
        assert item["sha1"] == stock[url]["sha1"]
        # (Scrapy before 2.12 reads a response's encoding as it is built, which decodes a body
        # that declares nothing: stock decodes those there, the plugin does not.)
        assert stock[url]["decoded"] is False or not SCRAPY_212
        # Decided (the decision is in meta), not decoded; but where deciding was decoding
        # (valid UTF-8 that sniffing checked whole: its text is kept, at no cost).
        assert item["source"] is not None, item
        assert item["decoded"] is (item["source"] == "utf8"), item
    assert sum(v for k, v in result.stats.items() if k.startswith("charset/source/")) == len(PAGES)
    assert result.stat("charset/replacement_char") == 0  # what is said of texts never read
    assert result.stat("charset/changed") == result.stat("charset/changed_unknown") == 0


def test_with_meta_refresh_every_page_is_decoded_once_and_its_text_counted(
    server: LocalServer,
) -> None:
    # Scrapy's default: MetaRefreshMiddleware (after this one) reads each page's text, so the
    # plugin's text is decoded there, once, and what is said of it is counted.
    ours = by_url(result := crawl(server, ADDON))
    assert all(item["decoded"] for item in ours.values()), ours
    assert result.stat("charset/replacement_char") == 2  # /meta-utf8, /stray-byte
    # /undeclared-1251: stock Scrapy would guess (charset-normalizer).
    assert result.stat("charset/changed_unknown") == 1, result.stats
