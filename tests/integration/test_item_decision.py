"""``CHARSET_ITEM_DECISION_FIELD``: each item made from a page records the page's decision."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse

from scrapy_charset.integration.item_decision import CharsetItemDecisionMiddleware
from tests.integration.item_decision_spiders import ITEM_TYPES
from tests.integration.test_middleware_support import (
    build,
    make_crawler,
    middleware,
    response_for,
    version_settings,
)
from tests.support.crawl import run_crawl
from tests.support.server import LocalServer, html

JA = "日本語のテキスト"
SJIS_RECORD = {"encoding": "Shift_JIS", "source": "meta", "label": "shift_jis"}


def decoded_response() -> Any:
    mw, _ = middleware()
    body = f"<meta charset=shift_jis><p>{JA}</p>".encode("cp932")
    request, response = response_for("http://x.com/", body)
    return mw.process_response(request, response)


def item_middleware(field: Any = "charset") -> tuple[CharsetItemDecisionMiddleware, Any]:
    crawler = make_crawler({"CHARSET_ITEM_DECISION_FIELD": field})
    return build(CharsetItemDecisionMiddleware, crawler), crawler


def stats(crawler: Any) -> dict[str, int]:
    return {
        key: value
        for key, value in crawler.stats.get_stats().items()
        if key.startswith("charset/item_decision/")
    }


def test_off_unless_a_field_is_named() -> None:
    for value in (None, ""):
        with pytest.raises(NotConfigured):
            item_middleware(value)
    for value in (42, ["charset"], "  "):
        with pytest.raises(ValueError, match="CHARSET_ITEM_DECISION_FIELD"):
            item_middleware(value)


def test_every_item_type_that_can_take_the_field_gets_it(caplog: Any) -> None:
    mw, crawler = item_middleware()
    response = decoded_response()
    items = [factory(kind) for kind, (factory, _) in ITEM_TYPES.items()]
    request = scrapy.Request("http://x.com/next", meta={"k": 1})
    with caplog.at_level(logging.WARNING):
        out = list(mw.process_spider_output(response, iter([*items, request])))
    assert out[-1] is request and request.meta == {"k": 1}
    assert len(out) == len(items) + 1 and all(a is b for a, b in zip(out[:-1], items, strict=True))
    for (kind, (_, can_take)), item in zip(ITEM_TYPES.items(), out[:-1], strict=True):
        adapter = ItemAdapter(item)
        if can_take:
            assert adapter["charset"] == SJIS_RECORD, kind
        else:
            assert adapter.get("charset") is None, kind
    supported = sum(can for _, can in ITEM_TYPES.values())
    assert stats(crawler) == {
        "charset/item_decision/added": supported,
        "charset/item_decision/unsupported": len(ITEM_TYPES) - supported,
    }
    warnings = [r for r in caplog.records if "decision field" in r.getMessage()]
    assert len(warnings) == 1
    # Each item has its own dict.
    out[0]["charset"]["encoding"] = "changed"
    assert ItemAdapter(out[1])["charset"] == SJIS_RECORD


def test_async_output_is_tagged_too() -> None:
    mw, crawler = item_middleware("decision")
    response = decoded_response()

    async def output() -> AsyncIterator[Any]:
        yield {"a": 1}
        yield scrapy.Request("http://x.com/")

    async def collect() -> list[Any]:
        return [x async for x in mw.process_spider_output_async(response, output())]

    out = asyncio.run(collect())
    assert out[0] == {"a": 1, "decision": SJIS_RECORD}
    assert isinstance(out[1], scrapy.Request)
    assert stats(crawler) == {"charset/item_decision/added": 1}


def test_a_value_the_spider_set_is_kept_and_undecoded_pages_are_counted() -> None:
    mw, crawler = item_middleware()
    out = list(mw.process_spider_output(decoded_response(), [{"charset": "mine"}]))
    assert out == [{"charset": "mine"}]
    stock = TextResponse("http://x.com/a.json", body=b"{}", headers={"Content-Type": "x/json"})
    out = list(mw.process_spider_output(stock, [{"a": 1}]))
    assert out == [{"a": 1}]
    assert stats(crawler) == {
        "charset/item_decision/kept": 1,
        "charset/item_decision/no_decision": 1,
    }


def test_crawl_with_the_addon_records_each_pages_decision() -> None:
    ru = "Съешь же ещё этих мягких французских булок"
    with LocalServer() as server:
        server.add("/sjis", html(f"<meta charset=shift_jis><p>{JA}</p>".encode("cp932")))
        server.add("/koi8", html(f"<p>{ru}</p>".encode("koi8-r"), "text/html; charset=KOI8-R"))
        result = run_crawl(
            "tests.integration.item_decision_spiders:ItemTypesSpider",
            {
                "ADDONS": {"scrapy_charset.Addon": 0},
                "CHARSET_ITEM_DECISION_FIELD": "charset",
                **version_settings(),
            },
            {"urls": [server.url("/sjis"), server.url("/koi8")]},
        )
    expected = {
        "/sjis": SJIS_RECORD,
        "/koi8": {"encoding": "KOI8-R", "source": "header", "label": "KOI8-R"},
    }
    names = [item["name"] for item in result.items]
    # Every item arrives (none dropped), each with its own page's decision where it fits.
    per_page = 2 * len(ITEM_TYPES) + 1
    assert len(result.items) == len(set(names)) == 2 * per_page
    for item in result.items:
        url, kind = item["name"].split(" ")
        path = url.split("127.0.0.1:")[1].split("/", 1)[1].split("?")[0]
        if kind == "own":
            assert item["charset"] == "set by the spider"
        elif ITEM_TYPES[kind][1]:
            assert item["charset"] == expected["/" + path], item
        else:
            assert item.get("charset") is None, item
    supported = sum(can for _, can in ITEM_TYPES.values())
    assert result.stat("charset/item_decision/added") == 4 * supported
    assert result.stat("charset/item_decision/unsupported") == 4 * (len(ITEM_TYPES) - supported)
    assert result.stat("charset/item_decision/kept") == 2
    assert result.stat("item_scraped_count") == 2 * per_page
    assert result.stat("log_count/ERROR") == 0
    assert "deprecat" not in result.log.lower(), result.log
