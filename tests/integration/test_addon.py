"""``ADDONS = {"scrapy_charset.Addon": 0}`` sets up the middleware and the pipeline once."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.utils.conf import build_component_list

import scrapy_charset
from scrapy_charset.integration.addon import (
    ITEM_DECISION_PATH,
    MIDDLEWARE_PATH,
    PIPELINE_PATH,
    Addon,
)
from scrapy_charset.integration.middleware import CharsetMiddleware
from tests.integration.test_middleware_support import make_crawler


class ProjectCharsetMiddleware(CharsetMiddleware):
    pass


def components(settings: dict[str, Any], name: str) -> dict[Any, Any]:
    crawler = make_crawler({"ADDONS": {"scrapy_charset.Addon": 0}, **settings})
    return dict(crawler.settings.getdict(name))


def ordered_middlewares(settings: dict[str, Any]) -> list[str]:
    crawler = make_crawler(settings)
    return [
        path if isinstance(path, str) else f"{path.__module__}.{path.__qualname__}"
        for path in build_component_list(
            crawler.settings.getwithbase("DOWNLOADER_MIDDLEWARES")
        )
    ]


def test_addon_is_exported_lazily_from_the_package() -> None:
    assert scrapy_charset.Addon is Addon


def test_addon_adds_middleware_at_585_pipeline_at_290_and_item_decision_at_100() -> None:
    assert components({}, "DOWNLOADER_MIDDLEWARES")[MIDDLEWARE_PATH] == 585
    assert components({}, "ITEM_PIPELINES")[PIPELINE_PATH] == 290
    assert components({}, "SPIDER_MIDDLEWARES")[ITEM_DECISION_PATH] == 100


def test_pipeline_runs_before_storage_pipelines() -> None:
    # scrapy-redis's RedisPipeline (300) and Scrapy's documented storage examples (300, 800)
    # must see the normalized items with their findings.
    crawler = make_crawler(
        {
            "ADDONS": {Addon: 0},
            "ITEM_PIPELINES": {"scrapy_redis.pipelines.RedisPipeline": 300, "a.Store": 800},
        }
    )
    order = build_component_list(crawler.settings.getwithbase("ITEM_PIPELINES"))
    assert order == [PIPELINE_PATH, "scrapy_redis.pipelines.RedisPipeline", "a.Store"]


def test_addon_places_middleware_between_meta_refresh_and_compression() -> None:
    order = ordered_middlewares({"ADDONS": {Addon: 0}})
    position = order.index(MIDDLEWARE_PATH)
    assert order[position - 1].endswith("MetaRefreshMiddleware")
    assert order[position + 1].endswith("HttpCompressionMiddleware")


@pytest.mark.parametrize(
    "key",
    [
        MIDDLEWARE_PATH,
        "scrapy_charset.CharsetMiddleware",
        CharsetMiddleware,
        ProjectCharsetMiddleware,
        f"{__name__}.ProjectCharsetMiddleware",
    ],
)
@pytest.mark.parametrize("priority", [700, None])
def test_middleware_already_listed_is_left_as_the_project_set_it(
    key: Any, priority: int | None
) -> None:
    listed = components({"DOWNLOADER_MIDDLEWARES": {key: priority}}, "DOWNLOADER_MIDDLEWARES")
    assert listed == {key: priority}


@pytest.mark.parametrize("key", [PIPELINE_PATH, "scrapy_charset.CharsetPipeline"])
def test_pipeline_already_listed_is_left_alone(key: str) -> None:
    listed = components({"ITEM_PIPELINES": {key: None}}, "ITEM_PIPELINES")
    assert listed == {key: None}


def test_other_components_keep_their_priorities() -> None:
    other = "scrapy.downloadermiddlewares.useragent.UserAgentMiddleware"
    listed = components({"DOWNLOADER_MIDDLEWARES": {other: 123}}, "DOWNLOADER_MIDDLEWARES")
    assert listed == {other: 123, MIDDLEWARE_PATH: 585}


def test_disabled_middleware_is_not_added_back() -> None:
    order = ordered_middlewares(
        {"ADDONS": {Addon: 0}, "DOWNLOADER_MIDDLEWARES": {CharsetMiddleware: None}}
    )
    assert MIDDLEWARE_PATH not in order
