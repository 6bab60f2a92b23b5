"""Audit a Scrapy HTTP cache folder filled by a real crawl of the mix (FilesystemCacheStorage)."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scrapy_charset.tools.audit_compare import scrapy_text
from scrapy_charset.tools.audit_inputs import read_cache_entry
from tests.support.crawl import run_crawl
from tests.support.server import LocalServer, Reply, html
from tests.tools.test_audit_pages import MIX, assert_mix_summary, run_audit

# This page is served gzip-compressed: the cache keeps the compressed body and its
# Content-Encoding header, which the audit must undo.
GZIPPED = "/ru/cp1251"


@dataclass
class CachedCrawl:
    cache: Path  # HTTPCACHE_DIR
    items: list[dict[str, Any]]


def _reply(path: str, body: bytes, content_type: str | None) -> Reply:
    if path != GZIPPED:
        return html(body, content_type)
    headers: list[tuple[str, str | bytes]] = [("Content-Encoding", "gzip")]
    if content_type:
        headers.append(("Content-Type", content_type))
    return Reply(body=gzip.compress(body), headers=headers)


@pytest.fixture(scope="module")
def cached_crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CachedCrawl]:
    cache = tmp_path_factory.mktemp("httpcache") / "cache"
    with LocalServer() as server, pytest.MonkeyPatch.context() as env:
        for page in MIX:
            server.add(page.path, _reply(page.path, page.body, page.content_type))
        # The server doubles as an HTTP proxy, so the pages keep their real host names
        # (and TLDs) while every request lands on 127.0.0.1.
        env.setenv("http_proxy", server.url(""))
        env.delenv("no_proxy", raising=False)
        env.delenv("NO_PROXY", raising=False)
        result = run_crawl(
            "tests.support.spiders:TextSpider",
            settings={
                "HTTPCACHE_ENABLED": True,
                "HTTPCACHE_DIR": str(cache),
                "LOG_LEVEL": "WARNING",
            },
            spider_kwargs={"urls": [page.url for page in MIX]},
        )
        assert server.received(GZIPPED), "the crawl went around the local server"
    yield CachedCrawl(cache, result.items)


def test_cache_holds_the_raw_compressed_body(cached_crawl: CachedCrawl) -> None:
    entries = {
        read_cache_entry(meta.parent).url: meta.parent
        for meta in cached_crawl.cache.rglob("pickled_meta")
    }
    assert len(entries) == len(MIX)
    gz_entry = entries[next(p.url for p in MIX if p.path == GZIPPED)]
    assert (gz_entry / "response_body").read_bytes()[:2] == b"\x1f\x8b"
    page = read_cache_entry(gz_entry)
    assert page.error is None
    assert page.body == next(p.body for p in MIX if p.path == GZIPPED)


def test_audit_of_the_cache_matches_the_mix(cached_crawl: CachedCrawl) -> None:
    result = run_audit("--httpcache", str(cached_crawl.cache), "--format", "jsonl")
    assert result.status == 0, result.err
    assert_mix_summary(result.summary())
    assert {row["kind"] for row in result.pages()} == {"httpcache"}
    assert {row["status"] for row in result.pages()} == {200}
    # The cache folder as a plain INPUT is recognised as well.
    again = run_audit(str(cached_crawl.cache), "--format", "jsonl")
    assert again.summary() == result.summary()


def test_scrapy_reproduction_matches_the_real_crawl(cached_crawl: CachedCrawl) -> None:
    # What the audit calls "Scrapy's text" is what the spider's callbacks really got.
    by_url = {item["url"]: item for item in cached_crawl.items}
    assert set(by_url) == {page.url for page in MIX}
    for page in MIX:
        encoding, text = scrapy_text(page.body, (page.content_type,), page.url)
        assert text == by_url[page.url]["text"], page.path
        assert encoding == by_url[page.url]["encoding"], page.path


def test_gzipped_cache_and_broken_entries(cached_crawl: CachedCrawl, tmp_path: Path) -> None:
    # HTTPCACHE_GZIP=True stores every file of an entry gzip'd (Scrapy opens them with
    # gzip.open); make that variant of the crawled cache.
    copy = tmp_path / "cache"
    shutil.copytree(cached_crawl.cache, copy)
    for path in copy.rglob("*"):
        if path.is_file():
            path.write_bytes(gzip.compress(path.read_bytes()))
    entries = sorted(p.parent for p in copy.rglob("pickled_meta"))
    # One entry loses its metadata, another its body; a third has a corrupt pickled_meta and
    # no meta: each is reported, none stops the audit.
    bad = {}
    for entry, damage in zip(entries[:3], ("no-meta", "no-body", "bad-pickle"), strict=True):
        url = read_cache_entry(entry).url
        bad[damage] = url
        if damage == "no-meta":
            (entry / "meta").unlink()
            (entry / "pickled_meta").unlink()
        elif damage == "no-body":
            (entry / "response_body").unlink()
        else:
            (entry / "meta").unlink()
            (entry / "pickled_meta").write_bytes(b"\x80\x04not a pickle")
    result = run_audit(str(copy), "--format", "jsonl", "--group-by", "kind")
    assert result.status == 0
    summary = result.summary()
    assert summary["total"][0] == len(MIX) - 3
    assert summary["total"][-1] == 3
    errors = {row["origin"]: row["error"] for row in result.pages() if row["error"]}
    assert len(errors) == 3
    messages = sorted(errors.values())
    assert any("cache entry without metadata" in m for m in messages)
    assert any("response_body" in m for m in messages)
    assert any("unreadable pickled_meta" in m for m in messages)
    # Without --fail-on-error the audit succeeds; with it, the errors fail the run.
    failing = run_audit(str(copy), "--format", "jsonl", "--fail-on-error")
    assert failing.status == 3
    assert "3 input(s) could not be audited" in failing.err
