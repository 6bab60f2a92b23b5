"""The audit decodes each page as the middleware does under the same settings: a real crawl of
the bundled demo site with the plugin, and the audit of the same URLs with the same ``-s``
settings, agree page by page on the decision and on whether stock Scrapy's text differs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import scrapy
from scrapy.http import Headers
from scrapy.responsetypes import responsetypes

from scrapy_charset.tools.demo_site import PAGES, serve
from tests.support.crawl import REPO, run_crawl
from tests.tools.test_audit_pages import run_audit

SPIDER = "tests.tools.test_audit_settings:DecisionSpider"


class DecisionSpider(scrapy.Spider):
    """Yields, per page, the plugin's decision and whether its text is stock Scrapy's."""

    name = "audit_decisions"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = list(urls or [])

    async def start(self) -> Any:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for url in self.urls:
            yield scrapy.Request(url, dont_filter=True)

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        headers = Headers(response.headers)
        cls = responsetypes.from_args(headers=headers, url=response.url, body=response.body)
        stock = cls(response.url, body=response.body, headers=headers).text
        decision = getattr(response, "charset_decision", None)
        yield {
            "url": response.url,
            "handled": decision is not None,
            "encoding": decision.encoding.name if decision is not None else None,
            "source": decision.source.value if decision is not None else None,
            "scrapy_same": response.text == stock,
        }


SETTINGS: list[dict[str, Any]] = [
    {},
    {"CHARSET_DETECTOR": "chardetng"},
    {"CHARSET_DETECTOR": "none", "CHARSET_TLD_HINT": False},
    {"CHARSET_FORCE_ENCODING": "windows-1251"},
    {"CHARSET_RESPONSE_TYPES": "xml"},  # HTML pages are then left to stock Scrapy
]


def _audit_records(out: Path) -> dict[str, dict[str, Any]]:
    # Split on newlines only: a record's text may hold U+2028 or U+0085.
    lines = out.read_text("utf-8").split("\n")
    records = [json.loads(line) for line in lines if line]
    return {r["url"]: r for r in records if r["type"] == "page"}


def _assert_same_verdicts(
    crawled: dict[str, dict[str, Any]], audited: dict[str, dict[str, Any]], what: str
) -> None:
    assert set(audited) == set(crawled), what
    for url, item in crawled.items():
        record = audited[url]
        if not item["handled"]:
            assert record["skipped"] is not None and "not handled" in record["skipped"], url
            continue
        assert record["error"] is None and record["skipped"] is None, (what, url, record)
        assert (record["encoding"], record["source"]) == (item["encoding"], item["source"]), (
            what, url)
        assert record["scrapy_same"] == item["scrapy_same"], (what, url)


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(map(str, s.values())) or "-")
def test_audit_verdicts_match_the_crawl(settings: dict[str, Any], tmp_path: Path) -> None:
    """Audited as URLs (fetched again) and as the HTTP cache the crawl filled."""
    cache = tmp_path / "httpcache"
    with serve() as site:
        urls = [site.url(page) for page in PAGES]
        crawl = run_crawl(
            SPIDER,
            {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585},
             "HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(cache),
             "LOG_LEVEL": "INFO", **settings},
            {"urls": urls},
        )
        out = tmp_path / "audit.jsonl"
        overrides = [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
        # A process of its own, as a user runs it (a reactor starts once per process).
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        status = subprocess.run(
            [sys.executable, "-m", "scrapy_charset", "audit", *urls, "--format", "jsonl",
             "--output", str(out), *overrides],
            cwd=tmp_path, env=env, capture_output=True, timeout=120,
        ).returncode
    crawled = {item["url"]: item for item in crawl.items}
    assert set(crawled) == set(urls)
    _assert_same_verdicts(crawled, _audit_records(out), "URLs")
    # The bytes the crawl stored, audited offline with the same settings.
    cached_out = tmp_path / "cache.jsonl"
    cached = run_audit("--httpcache", str(cache), "--format", "jsonl", "--output",
                       str(cached_out), *overrides)
    assert cached.status == status, cached.err
    _assert_same_verdicts(crawled, _audit_records(cached_out), "HTTP cache")
    if settings.get("CHARSET_RESPONSE_TYPES") == "xml":
        assert status == 3  # no page the middleware handles: nothing audited
    else:
        assert status == 0
        # Stock Scrapy's text differs somewhere, so the comparison is not vacuous.
        assert any(not item["scrapy_same"] for item in crawled.values())
    # The settings change the decisions the audit has to follow (chardetng reads the one
    # undeclared page as the built-in detector does).
    changed = _decisions(crawl.items) != DEFAULT_DECISIONS
    assert changed == (bool(settings) and settings.get("CHARSET_DETECTOR") != "chardetng")


# The decisions with the default settings, computed by the middleware itself.
DEFAULT_DECISIONS: dict[str, tuple[str | None, str | None]] = {}


@pytest.fixture(scope="module", autouse=True)
def _default_decisions() -> None:
    """The default-settings crawl's decisions, for the settings that must differ from them."""
    with serve() as site:
        urls = [site.url(page) for page in PAGES]
        crawl = run_crawl(
            SPIDER, {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}},
            {"urls": urls},
        )
    DEFAULT_DECISIONS.update(_decisions(crawl.items))
    assert len(DEFAULT_DECISIONS) == len(PAGES)


def _decisions(items: list[dict[str, Any]]) -> dict[str, tuple[str | None, str | None]]:
    """Per page (the URL's path: each server has its own port), the encoding and the rule."""
    return {urlsplit(i["url"]).path: (i["encoding"], i["source"]) for i in items}
