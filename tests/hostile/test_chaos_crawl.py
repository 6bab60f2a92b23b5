"""A real crawl of the chaos site, without the plugin and with it (middleware, add-on, faults).

The plugin must never change where a response ends up: every case reaches the same callback
or errback with the same status, the same raw body and the same items; its own failures are
counted in ``charset/error...`` stats instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.hostile.chaos_site import CASES, routes
from tests.support.crawl import CrawlResult, run_crawl
from tests.support.server import LocalServer

SPIDER = "tests.hostile.chaos_spiders:ChaosSpider"
MIDDLEWARE = {"scrapy_charset.integration.middleware.CharsetMiddleware": 585}
ADDON = {"scrapy_charset.Addon": 0}
RUNS: dict[str, dict[str, Any]] = {
    "stock": {},
    "addon": {"ADDONS": ADDON},
    # The middleware path, with a fault injected through the plugin's own setting.
    "middleware-faulty-detector": {
        "DOWNLOADER_MIDDLEWARES": MIDDLEWARE,
        "CHARSET_DETECTOR": "tests.hostile.chaos_spiders:FaultyDetector",
    },
}
PLUGIN_RUNS = [name for name in RUNS if name != "stock"]


@pytest.fixture(scope="module")
def crawls() -> Iterator[dict[str, CrawlResult]]:
    """All runs at once (each crawl is its own process) against one chaos server."""
    with LocalServer(routes()) as server:
        kwargs = {"base": server.url(""), "cases": CASES}
        settings = {"LOG_LEVEL": "INFO", "RETRY_TIMES": 1}
        with ThreadPoolExecutor(2) as pool:  # two cores
            futures = {
                name: pool.submit(run_crawl, SPIDER, {**settings, **extra}, kwargs, 300)
                for name, extra in RUNS.items()
            }
            yield {name: future.result() for name, future in futures.items()}


def outcomes(result: CrawlResult) -> Counter[tuple[Any, ...]]:
    """Where each case ended up: callback or errback, status, response family, raw size."""
    seen: Counter[tuple[Any, ...]] = Counter()
    for item in result.items:
        if item["outcome"] == "callback":
            key = (item["status"], item["kind"], item["body_len"], item.get("select_error"))
        elif item["outcome"] == "errback":
            key = (item["error"], item["status"])
        else:
            key = tuple(sorted((k, repr(v)) for k, v in item.items()))
        seen[(item["case"], item["outcome"], *key)] += 1
    return seen


def by_case(result: CrawlResult) -> dict[str, dict[str, Any]]:
    return {item["case"]: item for item in result.items if item["outcome"] == "callback"}


def callback_errors(result: CrawlResult) -> set[str]:
    """The cases whose callback raised in this crawl (recorded by the spider)."""
    prefix = "chaos/spider_error/"
    return {key[len(prefix) :] for key in result.stats if key.startswith(prefix)}


def spider_exceptions(result: CrawlResult) -> int:
    """Exceptions raised in callbacks (Scrapy 2.11 counts them per type only, no ``/count``)."""
    return sum(
        n for key, n in result.stats.items()
        if key.startswith("spider_exceptions/") and key != "spider_exceptions/count"
    )


def test_stock_crawl_reaches_every_case(crawls: dict[str, CrawlResult]) -> None:
    stock = crawls["stock"]
    # Every case reaches a callback or an errback, or stock Scrapy's own code raises in the
    # callback: with Scrapy 2.11 and w3lib 2.1, response.follow() on a response whose
    # encoding is UTF-16 raises UnicodeDecodeError (case "utf16-lie": w3lib encodes the port
    # in UTF-16); newer Scrapy and w3lib do not.
    failed = callback_errors(stock)
    assert spider_exceptions(stock) == len(failed)
    assert {item["case"] for item in stock.items} | failed == {case for case, _, _ in CASES}
    ended = Counter(item["outcome"] for item in stock.items)
    # The chaos is real: some responses fail at the transport or in decompression.
    assert ended["errback"] >= 5 and ended["callback"] >= 50


@pytest.mark.parametrize("run", PLUGIN_RUNS)
def test_plugin_loses_nothing(crawls: dict[str, CrawlResult], run: str) -> None:
    stock, plugin = crawls["stock"], crawls[run]
    # Where stock Scrapy's own code raised in the callback, the plugin may only do better.
    lost_by_stock = callback_errors(stock)
    assert callback_errors(plugin) == set()
    assert spider_exceptions(plugin) == 0

    def kept(result: CrawlResult) -> Counter[tuple[Any, ...]]:
        return Counter({k: n for k, n in outcomes(result).items() if k[0] not in lost_by_stock})

    assert kept(plugin) == kept(stock)
    assert lost_by_stock <= set(by_case(plugin))
    recovered = sum(1 for item in plugin.items if item["case"] in lost_by_stock)
    lost = sum(1 for item in stock.items if item["case"] in lost_by_stock)
    assert len(plugin.items) - recovered == len(stock.items) - lost
    assert plugin.stat("item_scraped_count") - recovered == stock.stat("item_scraped_count") - lost
    for key in ("response_received_count", "downloader/response_count"):
        assert plugin.stat(key) == stock.stat(key), key


@pytest.mark.parametrize("run", PLUGIN_RUNS)
def test_plugin_took_over_html_responses(crawls: dict[str, CrawlResult], run: str) -> None:
    plugin = crawls[run]
    taken = [
        item["case"] for item in plugin.items
        if item["outcome"] == "callback" and any(f.startswith("charset:") for f in item["flags"])
    ]
    untouched = {
        item["case"] for item in plugin.items
        if item["outcome"] == "callback" and item["case"] not in taken
    }
    # Only what is not HTML, has no body, or was opted out (or failed, when faults are
    # injected) is left to Scrapy.
    expected = {"head", "dont-charset", "empty", "empty-declared", "no-content", "plain",
                "xml", "json"}
    assert expected <= untouched
    if plugin.stat("charset/error") == 0:
        assert untouched == expected
    # Pages that end in an errback (404, 500) are decoded too, before HttpError.
    sources = sum(v for k, v in plugin.stats.items() if k.startswith("charset/source/"))
    assert sources >= len(taken)


def test_no_internal_errors_without_faults(crawls: dict[str, CrawlResult]) -> None:
    errors = {k: v for k, v in crawls["addon"].stats.items() if k.startswith("charset/error")}
    assert errors == {}


def test_faulty_detector_is_absorbed_and_counted(crawls: dict[str, CrawlResult]) -> None:
    faulty, addon = crawls["middleware-faulty-detector"], crawls["addon"]
    assert faulty.stat("charset/error") >= 3
    assert faulty.stat("charset/error/RuntimeError") >= 1
    # One log line for the first error, not one per response.
    assert faulty.log.count("Internal error while decoding") == 1
    # The responses the detector broke are delivered exactly as stock Scrapy made them.
    stock = by_case(crawls["stock"])
    for case, item in by_case(faulty).items():
        if item.get("text_head") != by_case(addon)[case].get("text_head"):
            assert item["text_head"] == stock[case]["text_head"], case


@pytest.mark.parametrize("run", PLUGIN_RUNS)
def test_garbage_forced_labels_are_ignored_and_counted(
    crawls: dict[str, CrawlResult], run: str
) -> None:
    plugin, stock = crawls[run], by_case(crawls["stock"])
    # Each garbage label against the case that fetches the same page with no label at all.
    # A label of the replacement encoding (iso-2022-kr) would read any page as one U+FFFD.
    garbage = {"force-garbage": "undeclared-cyr", "force-utf7": "utf7-header", "force-nul": "ok",
               "force-int": "ok", "force-list": "ok", "force-empty": "undeclared-sjis",
               "force-huge": "ok", "force-replacement": "ok"}
    assert plugin.stat("charset/forced/invalid") == len(garbage)
    cases = by_case(plugin)
    for case, unforced in garbage.items():
        assert cases[case]["body_len"] == stock[case]["body_len"]
        assert cases[case]["text_head"] == cases[unforced]["text_head"], case
    assert cases["force-replacement"]["text_head"] != "\ufffd"


@pytest.mark.parametrize("run", PLUGIN_RUNS)
def test_utf7_is_never_honoured(crawls: dict[str, CrawlResult], run: str) -> None:
    cases = by_case(crawls[run])
    for case in ("utf7-header", "utf7-meta", "force-utf7"):
        assert "+ADw-script+AD4-" in cases[case]["text_head"], case
        assert cases[case]["scripts"] == 0, case


def test_chaos_pages_read_as_a_browser_reads_them(crawls: dict[str, CrawlResult]) -> None:
    cases = by_case(crawls["addon"])
    # replacement (iso-2022-kr in the header): the whole body is one U+FFFD.
    assert cases["replacement"]["text_head"] == "\ufffd"
    # A UTF-8 BOM beats the header's windows-1251.
    assert cases["bom-vs-header"]["title"] == "Café"
    # gzip whose header charset lies: the header is "certain", so UTF-8 it is, with U+FFFD.
    assert "\ufffd" in cases["gzip-lie"]["title"]
    # Undeclared legacy pages, decoded from real codecs' bytes.
    assert cases["undeclared-sjis"]["title"] == "競馬"
    assert cases["undeclared-cyr"]["title"] == "Новости"
    # Truncated in the middle of a Shift_JIS character and delivered partially.
    assert cases["truncated-mb-partial"]["title"] == "競馬"
    assert cases["empty"]["text_head"] == "" and cases["png"]["body_len"] > 0
