"""Distributed and resumed crawls: scrapy-redis workers sharing a real Redis server, and a
``JOBDIR`` crawl interrupted once and resumed.

The site mixes Chromium-recorded documents in many encodings with the pages whose requests
stock Scrapy keeps but a plugin leaving objects in ``request.meta`` lost with a JSON scheduler
serializer: meta-refresh targets, retries of 503 pages and follow-ups made with
``meta=dict(response.meta)``, plus follow-ups that fail to download (their errback must not
see the previous page's decision). Every page must be fetched exactly once (twice for a 503
retried), every item must hold the browser's text and the page's own decision, and the
``charset/...`` stats of all workers (or runs) must add up to the responses the server sent.

The Redis tests need Debian's ``redis-server`` (``.ci/run`` installs it); without it they skip,
except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scrapy_charset.sniffing import decode_html
from tests.integration.distributed_spiders import marker
from tests.integration.test_middleware_support import version_settings
from tests.sniffing.test_chromium_documents import (
    DOCUMENTS,
    EXPECTED_DISAGREEMENTS,
    NOT_HTML,
    NOT_PLAIN_TEXT,
    UTF16_TAIL_DROPPED,
    content_type_values,
)
from tests.support.crawl import CrawlResult, run_crawl, start_crawl
from tests.support.server import LocalServer, ReceivedRequest, Reply, html

SPIDER = "tests.integration.distributed_spiders:SiteSpider"
FIELD = "charset"
DONE_KEY = "charset_site:done"
QUEUE_KEY = "charset_site:requests"
JA = "日本語のテキスト「カタカナ」"
RU = "Съешь же ещё этих мягких французских булок"
KO = "한국어 텍스트입니다"
ZH = "中文文本，简体字"
SPECIAL = 3  # pages of each special kind


@dataclass
class Page:
    """A path of the site: what the server sends and what the crawl must make of it.

    ``marker`` is the browser's text of ``<p id="m">`` in the item (``None``: no item, the
    page redirects); ``encodings`` the encoding each of its responses is decoded with, in
    order (one per time the server must send it).
    """

    path: str
    replies: list[Reply]
    marker: str | None
    encodings: list[str]
    start: bool = True


def chromium_pages(per_encoding: int = 2) -> list[Page]:
    """Chromium-recorded documents: a few per encoding Chromium decided."""
    chosen: Counter[str] = Counter()
    pages = []
    for document in sorted(DOCUMENTS, key=lambda d: d["id"]):
        chromium = document["chromium"]
        expected = chromium["marker"]
        if (
            document["group"] == "tld"  # needs host names mapped to 127.0.0.1
            or document["id"] in EXPECTED_DISAGREEMENTS
            or document["id"] in NOT_HTML
            or document["id"] in UTF16_TAIL_DROPPED
            or not re.fullmatch(r"[A-Za-z0-9._-]+", document["id"])
            or not expected
            or NOT_PLAIN_TEXT & set(expected)
            or chosen[chromium["charset"]] >= per_encoding
        ):
            continue
        body = base64.b64decode(document["body_b64"])
        # Documents whose marker is written plainly in the source (the Chromium document test
        # checks the decoding of every one of them).
        text, _ = decode_html(body, content_type_values(document), url=document["url"])
        if marker(text) != expected:
            continue
        chosen[chromium["charset"]] += 1
        reply = Reply(body, [(name, value) for name, value in document["headers"]])
        pages.append(Page(f"/d/{document['id']}", [reply], expected, [chromium["charset"]]))
    return pages


def special_pages(dead_port: int) -> list[Page]:
    pages = []
    for k in range(SPECIAL):
        refresh = (
            f'<meta charset=windows-1251><meta http-equiv="refresh" content="0; '
            f'url=/refreshed/{k}"><p id="m">{RU} {k}</p>'
        )
        pages.append(Page(f"/refresh/{k}", [html(refresh.encode("cp1251"))], None,
                          ["windows-1251"]))
        pages.append(Page(f"/refreshed/{k}",
                          [html(f'<p id="m">{JA} {k}</p>'.encode("cp932"),
                                "text/html; charset=Shift_JIS")],
                          f"{JA} {k}", ["Shift_JIS"], start=False))
        flaky = '<meta charset="euc-kr"><p id="m">{}</p>'
        pages.append(Page(f"/flaky/{k}",
                          [html(flaky.format(f"{KO} 503").encode("cp949"), status=503),
                           html(flaky.format(f"{KO} {k}").encode("cp949"))],
                          f"{KO} {k}", ["EUC-KR", "EUC-KR"]))
        copy = (
            f'<p id="m">{RU} copy {k}</p><a class="copy" href="/copied/{k}">next</a>'
            f'<a class="copy" href="http://127.0.0.1:{dead_port}/dead/{k}">dead</a>'
        )
        pages.append(Page(f"/copy/{k}",
                          [html(copy.encode("koi8-r"), "text/html; charset=koi8-r")],
                          f"{RU} copy {k}", ["KOI8-R"]))
        pages.append(Page(f"/copied/{k}",
                          [html(f'<meta charset=gbk><p id="m">{ZH} {k}</p>'.encode("gbk"))],
                          f"{ZH} {k}", ["GBK"], start=False))
    return pages  # fmt: skip


class Site:
    """The pages on a :class:`LocalServer`; each reply is sent in turn, the last one again."""

    def __init__(
        self,
        server: LocalServer,
        dead_port: int,
        delay: float = 0.02,
        wait_for_agents: frozenset[str] = frozenset(),
    ) -> None:
        self.base = server.url("")
        # Replies wait until every one of these User-Agents has sent a request, so that one
        # worker cannot crawl the whole site before the other one has started.
        self._agents_left = set(wait_for_agents)
        self._all_agents = threading.Event()
        if not wait_for_agents:
            self._all_agents.set()
        self.dead_port = dead_port
        self.pages = chromium_pages() + special_pages(dead_port)
        self._lock = threading.Lock()
        self._sent: Counter[str] = Counter()
        for page in self.pages:
            server.add(page.path, self._handler(page, delay))

    def _handler(self, page: Page, delay: float) -> Any:
        def handle(request: ReceivedRequest) -> Reply:
            with self._lock:
                self._agents_left.discard(request.headers.get("User-Agent", ""))
                if not self._agents_left:
                    self._all_agents.set()
            self._all_agents.wait(60)
            time.sleep(delay)  # gives every worker a share of the queue
            with self._lock:
                index = min(self._sent[page.path], len(page.replies) - 1)
                self._sent[page.path] += 1
            return page.replies[index]

        return handle

    def url(self, path: str) -> str:
        return self.base + path

    def start_urls(self) -> list[str]:
        return [self.url(page.path) for page in self.pages if page.start]

    def all_served(self) -> bool:
        with self._lock:
            return all(self._sent[p.path] >= len(p.encodings) for p in self.pages)

    def sent(self) -> Counter[str]:
        with self._lock:
            return Counter(self._sent)

    def dead_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{self.dead_port}/dead/{k}" for k in range(SPECIAL)]


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def check_crawl(site: Site, results: list[CrawlResult]) -> None:
    # Exactly once: the server sent each page as often as it has replies, no more, no less.
    expected_sent = Counter({page.path: len(page.encodings) for page in site.pages})
    assert site.sent() == expected_sent

    items = [item for result in results for item in result.items]
    by_url: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_url.setdefault(item["url"], []).append(item)
    expected_urls = {site.url(p.path) for p in site.pages if p.marker is not None}
    expected_urls |= set(site.dead_urls())
    assert set(by_url) == expected_urls
    assert [url for url, found in by_url.items() if len(found) != 1] == []
    for page in site.pages:
        if page.marker is None:
            continue
        (item,) = by_url[site.url(page.path)]
        assert item["status"] == 200 and item["marker"] == page.marker, (page.path, item)
        record = item[FIELD]
        assert record["encoding"] == page.encodings[-1], (page.path, item)
        # The meta record is the page's own decision, not one copied from an earlier page.
        assert item["meta_decision"] == record, (page.path, item)
    for url in site.dead_urls():
        (item,) = by_url[url]
        assert item["error"].endswith("ConnectionRefusedError")  # Scrapy 2.19 wraps it
        assert item["meta_decision"] is None and FIELD not in item

    # Stats add up across workers (runs) to the responses the server sent.
    served = sum(expected_sent.values())
    total: Counter[str] = Counter()
    for result in results:
        total.update({k: v for k, v in result.stats.items() if k.startswith("charset/")})
        assert result.stat("scheduler/unserializable") == 0
    # The only errors logged: RetryMiddleware giving up on each dead link.
    errors = [line for r in results for line in r.log.splitlines() if "] ERROR: " in line]
    assert len(errors) == len(site.dead_urls()), errors
    assert all("Gave up retrying" in line and "/dead/" in line for line in errors), errors
    sources = sum(v for k, v in total.items() if k.startswith("charset/source/"))
    assert sources == served
    encodings = Counter({k[len("charset/encoding/"):]: v for k, v in total.items()
                         if k.startswith("charset/encoding/")})  # fmt: skip
    assert encodings == Counter(e for page in site.pages for e in page.encodings)
    assert not [k for k in total if k.startswith(("charset/skipped/", "charset/error"))]
    items_with_record = sum(1 for page in site.pages if page.marker is not None)
    assert total["charset/item_decision/added"] == items_with_record


def crawl_settings(**extra: Any) -> dict[str, Any]:
    return {
        "ADDONS": {"scrapy_charset.Addon": 0},
        "CHARSET_ITEM_DECISION_FIELD": FIELD,
        "CONCURRENT_REQUESTS": 4,
        "LOG_LEVEL": "INFO",
        **version_settings(),
        **extra,
    }


# -- Redis ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A real ``redis-server`` on 127.0.0.1 on a free port, stopped at the end."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed: .ci/run must install it")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    import redis

    port = closed_port()
    with tempfile.TemporaryDirectory() as workdir:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", workdir, "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            client = redis.Redis(host="127.0.0.1", port=port)
            deadline = time.monotonic() + 20
            while True:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.mark.parametrize(
    "serializer",
    [None, "tests.support.redis_json"],
    ids=["pickle", "json"],
)
def test_two_scrapy_redis_workers(redis_url: str, serializer: str | None) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushall()
    redis_settings: dict[str, Any] = {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        # One worker closing must not flush the queue the other one still works on.
        "SCHEDULER_PERSIST": True,
        "REDIS_URL": redis_url,
        "DIST_DONE_KEY": DONE_KEY,
    }
    if serializer is not None:
        redis_settings["SCHEDULER_SERIALIZER"] = serializer
    with LocalServer() as server:
        agents = [f"worker-{n}" for n in (1, 2)]
        site = Site(server, closed_port(), wait_for_agents=frozenset(agents))
        workers = [
            start_crawl(
                SPIDER,
                crawl_settings(DIST_WORKER=n, USER_AGENT=agents[n - 1], **redis_settings),
                {"urls": site.start_urls()},
            )
            for n in (1, 2)
        ]
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and not (
            site.all_served() and client.zcard(QUEUE_KEY) == 0
        ):
            time.sleep(0.2)
        time.sleep(1)  # the last responses' follow-ups and errbacks
        while time.monotonic() < deadline and client.zcard(QUEUE_KEY):
            time.sleep(0.2)
        client.set(DONE_KEY, 1)  # idle workers may stop now
        results = [worker.wait(90) for worker in workers]
    for result in results:
        assert "Traceback" not in result.log, result.log[-5000:]
        assert result.stat("downloader/response_count") > 0  # both workers took a share
    check_crawl(site, results)


# -- JOBDIR --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "disk_queue",
    ["scrapy.squeues.PickleFifoDiskQueue", "scrapy.squeues.MarshalFifoDiskQueue"],
    ids=["pickle", "marshal"],
)
def test_jobdir_crawl_interrupted_and_resumed(tmp_path: Path, disk_queue: str) -> None:
    settings = crawl_settings(
        JOBDIR=str(tmp_path / "job"),
        SCHEDULER_DISK_QUEUE=disk_queue,
    )
    with LocalServer() as server:
        site = Site(server, closed_port())
        pages = len(site.pages)
        first = run_crawl(
            SPIDER, {**settings, "CLOSESPIDER_PAGECOUNT": pages // 3},
            {"urls": site.start_urls()},
        )  # fmt: skip
        assert "Spider closed (closespider_pagecount)" in first.log
        assert not site.all_served()
        second = run_crawl(SPIDER, settings, {"urls": site.start_urls()})
        assert "Spider closed (finished)" in second.log
    check_crawl(site, [first, second])
