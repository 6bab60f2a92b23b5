"""The audit decodes each page as the middleware does under the same settings: a real crawl of
the bundled demo site with the plugin, and the audit of the same URLs with the same ``-s``
settings, agree page by page on the decision and on whether stock Scrapy's text differs.

Every settings variant changes some decisions on the site (asserted), so agreeing proves the
audit follows the settings. The pages have host names with a country TLD (the TLD hint reads
it): requests go to the site on 127.0.0.1 as an HTTP proxy (``http_proxy``), which the crawl
and the audit both honour."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.http import Headers
from scrapy.responsetypes import responsetypes

from scrapy_charset.tools.demo_site import PAGES, DemoPage, DemoSite, serve
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


def _undeclared(slug: str, text: str, codec: str) -> DemoPage:
    body = f"<html><head><title>{slug}</title></head><body><p>{text}</p></body></html>"
    return DemoPage(slug, "no declaration", "text/html", body.encode(codec), text, codec, "")


# Undeclared pages the settings decide differently: chardetng reads this KOI8-R as KOI8-U (the
# built-in detector: KOI8-R); on .hu the TLD hint reads this Hungarian as ISO-8859-2, the
# detector alone as windows-1250.
EXTRA = (
    _undeclared("koi8", "Съешь же ещё этих мягких французских булок", "koi8-r"),
    _undeclared("hungarian", "Árvíztűrő tükörfúrógép", "iso-8859-2"),
)
SITE_PAGES = (*PAGES, *EXTRA)
HOSTS = {"hungarian": "hirek.example.hu", "koi8": "novosti.example.ru"}


def _url(page: DemoPage) -> str:
    return f"http://{HOSTS.get(page.slug, 'www.example.com')}{page.path}"


URLS = [_url(page) for page in SITE_PAGES]

SETTINGS: list[dict[str, Any]] = [
    {},
    {"CHARSET_DETECTOR": "chardetng"},
    {"CHARSET_TLD_HINT": False},
    {"CHARSET_DETECTOR": "none", "CHARSET_TLD_HINT": False},
    {"CHARSET_FORCE_ENCODING": "windows-1251"},
    {"CHARSET_RESPONSE_TYPES": "xml"},  # HTML pages are then left to stock Scrapy
]


@pytest.fixture(scope="module")
def site() -> Iterator[DemoSite]:
    """The site, as the proxy for every http:// URL of this module's crawls and audits."""
    with serve(SITE_PAGES) as running, pytest.MonkeyPatch.context() as patch:
        patch.setenv("http_proxy", running.base_url)
        patch.delenv("no_proxy", raising=False)
        patch.delenv("NO_PROXY", raising=False)
        yield running


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
def test_audit_verdicts_match_the_crawl(
    settings: dict[str, Any], site: DemoSite, default_decisions: dict[str, Any], tmp_path: Path
) -> None:
    """Audited as URLs (fetched again) and as the HTTP cache the crawl filled."""
    cache = tmp_path / "httpcache"
    crawl = run_crawl(
        SPIDER,
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585},
         "HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(cache),
         "LOG_LEVEL": "INFO", **settings},
        {"urls": URLS},
    )
    out = tmp_path / "audit.jsonl"
    overrides = [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
    # A process of its own, as a user runs it (a reactor starts once per process).
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    status = subprocess.run(
        [sys.executable, "-m", "scrapy_charset", "audit", *URLS, "--format", "jsonl",
         "--output", str(out), *overrides],
        cwd=tmp_path, env=env, capture_output=True, timeout=120,
    ).returncode
    crawled = {item["url"]: item for item in crawl.items}
    assert set(crawled) == set(URLS)
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
    # Every variant changes decisions the audit then has to follow.
    changed = {url for url, decision in _decisions(crawl.items).items()
               if decision != default_decisions[url]}
    assert bool(changed) == bool(settings), changed
    if settings == {"CHARSET_DETECTOR": "chardetng"}:
        assert _url(EXTRA[0]) in changed
    if settings == {"CHARSET_TLD_HINT": False}:
        assert changed == {_url(EXTRA[1])}  # the one page on a TLD the hint knows


@pytest.fixture(scope="module")
def default_decisions(site: DemoSite) -> dict[str, tuple[str | None, str | None]]:
    """The default-settings crawl's decisions, computed by the middleware itself."""
    crawl = run_crawl(
        SPIDER, {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}},
        {"urls": URLS},
    )
    decisions = _decisions(crawl.items)
    assert len(decisions) == len(SITE_PAGES)
    assert decisions[_url(EXTRA[0])] == ("KOI8-R", "detection")
    assert decisions[_url(EXTRA[1])] == ("ISO-8859-2", "tld")
    return decisions


def _decisions(items: list[dict[str, Any]]) -> dict[str, tuple[str | None, str | None]]:
    """Per page, the encoding and the rule."""
    return {i["url"]: (i["encoding"], i["source"]) for i in items}
