"""Real crawls (child processes) against a real local HTTP server serving real legacy bytes.

One site, crawled a few times: with the middleware on the asyncio reactor, with the add-on and
HttpCache on the default reactor (twice: the second crawl is served from the cache), with the
two spider-level opt-outs, and with a detector that fails.
"""

from __future__ import annotations

import gzip
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from scrapy.http import Headers, HtmlResponse, TextResponse, XmlResponse

from tests.integration.test_middleware_support import chromium_page, version_settings
from tests.support.crawl import CrawlResult, run_crawl
from tests.support.scrapy_compat import W3LIB_STANDARD
from tests.support.server import LocalServer, Reply, html

MIDDLEWARE = {"scrapy_charset.CharsetMiddleware": 585}
ASYNCIO = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
# None: Twisted's default reactor for the platform (not asyncio).
DEFAULT_REACTOR = None
JOBS_SPIDER = "tests.support.spiders:CharsetJobsSpider"

JA = "日本語のテキスト「カタカナ」"
RU = (
    "Съешь же ещё этих мягких французских булок, да выпей чаю. "
    "В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!"
)
KO = "한국어 텍스트입니다"
FR = "Crème brûlée, « à la française » — déjà vu"


@dataclass
class Page:
    """A page of the site and what a callback must see of it.

    ``text`` is the browser's text (``None``: stock Scrapy's, for responses left alone);
    ``source`` the rule expected to decide (``None``: skipped, for ``skip``'s reason).
    """

    path: str
    reply: Reply
    text: str | None
    source: str | None
    encoding: str | None = None
    skip: str | None = None
    job: dict[str, Any] = field(default_factory=dict)
    changed: bool | None = False  # None: stock Scrapy would have had to guess
    cls: type = HtmlResponse
    # Stats of responses on the way to the one the callback gets (redirects, meta refresh).
    extra_stats: dict[str, int] = field(default_factory=dict)
    error: bool = False  # the crawl injects a failure here: Scrapy's own response expected


def late_meta_page() -> str:
    links = "".join(f'<link rel="stylesheet" href="/s{i}.css">\n' for i in range(150))
    return f"<html><head>{links}<meta charset=euc-kr><title>{KO}</title></head><p>{KO}</p>"


def site() -> list[Page]:
    sjis = (
        f"<html><head><meta charset=shift_jis><title>{JA}</title></head><body><p>{JA}</p>"
        f'<a href="/search?q={JA}">{JA}</a>'
        '<form action="/submit" method="post"><input name="q" value=""></form></body></html>'
    )
    utf16_meta = (
        '<html><head><meta charset="utf-16">'
        f"<title>{FR}</title></head><p>{FR}</p>"
        '<form action="/submit" method="post"><input name="q" value=""></form>'
    )
    utf16_refresh = (
        '<html><head><meta charset="utf-16">'
        '<meta http-equiv="refresh" content="0; url=/refreshed?q=café">'
        f"<title>{FR}</title></head><p>{FR}</p>"
    )
    ru_meta = f"<html><head><meta charset=windows-1251><title>{RU[:20]}</title></head><p>{RU}</p>"
    conflict = f"<html><head><meta charset=utf-8><title>{FR}</title></head><p>{FR}</p>"
    undeclared_ru = f"<html><head><title>{RU[:20]}</title></head><body><p>{RU}</p><p>{RU}</p>"
    koi8 = f"<html><head><title>{RU[:10]}</title></head><p>{RU}</p>"
    forced = f"<html><head><meta charset=windows-1251></head><p>{RU}</p>"
    c1_body, c1_text = chromium_page("windows-1252")
    xml = f"<?xml version='1.0' encoding='windows-1251'?><feed><t>{RU}</t></feed>"
    utf16_bom = f"<html><head><title>{JA}</title></head><p>{JA}</p><a href='/u?q={JA}'>u</a>"
    # UTF-8 with one stray Latin-1 byte: UTF-8 and a U+FFFD (stock Scrapy: windows-1252).
    nearly = f"<html><head><title>{FR}</title></head><p>{RU}</p><a href='/n?q=café'>n</a>"
    nearly_body = nearly.encode() + b"<p>caf\xe9</p>"
    return [
        Page("/sjis", html(sjis.encode("cp932")), sjis, "meta", "scrapy-charset-shift_jis",
             job={"follow": "a::attr(href)", "form": {"q": JA}}),
        # (From w3lib 2.6 on, stock Scrapy reads these three pages as browsers do.)
        Page("/utf16-meta", html(utf16_meta.encode("utf-8")), utf16_meta, "meta", "utf-8",
             changed=not W3LIB_STANDARD, job={"form": {"q": FR}}),
        # The callback gets the page the refresh leads to.
        Page("/utf16-refresh", html(utf16_refresh.encode("utf-8")), "<p>ok</p>", "default",
             "scrapy-charset-windows-1252",
             extra_stats={"charset/source/meta": 1,
                          **({} if W3LIB_STANDARD else {"charset/changed": 1})}),
        Page("/ru-meta", html(ru_meta.encode("cp1251")), ru_meta, "meta",
             "scrapy-charset-windows-1251"),
        Page("/late-meta", html(late_meta_page().encode("cp949")), late_meta_page(),
             "late_meta", "scrapy-charset-euc-kr", changed=False if W3LIB_STANDARD else None),
        Page("/conflict", html(conflict.encode("cp1252"), "text/html; charset=windows-1252"),
             conflict, "header", "scrapy-charset-windows-1252"),
        Page("/utf8", html(f"<title>{JA}</title><p>{FR}</p>".encode()),
             f"<title>{JA}</title><p>{FR}</p>", "utf8", "utf-8"),
        Page("/detect", html(undeclared_ru.encode("cp1251")), undeclared_ru, "detection",
             "scrapy-charset-windows-1251", changed=None),
        Page("/gzip", Reply(gzip.compress(sjis.encode("cp932")),
                            [("Content-Type", "text/html"), ("Content-Encoding", "gzip")]),
             sjis, "meta", "scrapy-charset-shift_jis"),
        # RedirectMiddleware (600) turns the 302 into a request before the middleware (585).
        Page("/redirect", Reply(b"", [("Location", "/koi8")], status=302), koi8, "header",
             "scrapy-charset-koi8-r"),
        Page("/kept-redirect", html(b"<p>moved", status=301), None, None, skip="redirect",
             job={"meta": {"dont_redirect": True, "handle_httpstatus_list": [301]}}),
        Page("/c1", html(c1_body, "text/html; charset=windows-1252"), c1_text, "header",
             "scrapy-charset-windows-1252", changed=not W3LIB_STANDARD),
        Page("/feed.xml", html(xml.encode("cp1251"), "application/xml"), None, None,
             skip="type", cls=XmlResponse),
        Page("/plain.txt", html(RU.encode("cp1251"), "text/plain; charset=windows-1251"),
             None, None, skip="type", cls=TextResponse),
        Page("/empty", html(b""), None, None, skip="empty"),
        Page("/opt-out", html(ru_meta.encode("cp1251")), None, None, skip="dont_charset",
             job={"meta": {"dont_charset": True}}),
        Page("/forced", html(forced.encode("koi8-r")), forced, "forced", "scrapy-charset-koi8-r",
             changed=True, job={"meta": {"charset_encoding": "koi8-r"}}),
        Page("/missing", html(ru_meta.encode("cp1251"), status=404), ru_meta, "meta",
             "scrapy-charset-windows-1251",
             job={"meta": {"handle_httpstatus_list": [404]}}),
        Page("/head", html(ru_meta.encode("cp1251")), None, None, skip="head",
             job={"method": "HEAD"}),
        Page("/utf16-bom", html(b"\xff\xfe" + utf16_bom.encode("utf-16-le")), utf16_bom, "bom",
             "scrapy-charset-utf-16le", job={"follow": "a::attr(href)"}),
        Page("/nearly-utf8", html(nearly_body), nearly + "<p>caf\ufffd</p>", "utf8", "utf-8",
             changed=None, job={"follow": "a::attr(href)"}),
    ]  # fmt: skip


def serve(server: LocalServer, pages: list[Page]) -> list[dict[str, Any]]:
    koi8_body = f"<html><head><title>{RU[:10]}</title></head><p>{RU}</p>".encode("koi8-r")
    server.add("/koi8", html(koi8_body, "text/html; charset=KOI8-R"))
    for extra in ("/search", "/submit", "/refreshed", "/u", "/n"):
        server.add(extra, html(b"<p>ok</p>"))
    jobs = []
    for page in pages:
        server.add(page.path, page.reply)
        jobs.append({"name": page.path, "url": server.url(page.path), **page.job})
    return jobs


def crawl(
    server: LocalServer, pages: list[Page], settings: dict[str, Any], spider: str = JOBS_SPIDER
) -> CrawlResult:
    jobs = serve(server, pages)
    result = run_crawl(
        spider,
        {"LOG_LEVEL": "INFO", **version_settings(), **settings},
        {"jobs": jobs},
    )
    assert "deprecat" not in result.log.lower(), result.log
    assert result.stat("log_count/ERROR") == 0 or "charset/error" in result.stats
    return result


def by_name(result: CrawlResult) -> dict[str, dict[str, Any]]:
    items = {item["name"]: item for item in result.items if "name" in item}
    assert not [item for item in result.items if "error" in item]
    return items


def stock_text(page: Page) -> str:
    """Stock Scrapy's text for the page's bytes (same Scrapy, same detector)."""
    headers = Headers(page.reply.headers)
    cls = page.cls
    return cls("http://127.0.0.1/", headers=headers, body=page.reply.body).text  # type: ignore[no-any-return]


def expected_charset_stats(pages: list[Page]) -> dict[str, int]:
    stats: Counter[str] = Counter()
    for page in pages:
        if page.error:  # the injected fault is a RuntimeError
            stats["charset/error"] += 1
            stats["charset/error/RuntimeError"] += 1
            continue
        if page.source is None:
            stats[f"charset/skipped/{page.skip}"] += 1
            continue
        stats[f"charset/source/{page.source}"] += 1
        if page.changed:
            stats["charset/changed"] += 1
        elif page.changed is None:
            stats["charset/changed_unknown"] += 1
        if page.source == "forced":
            stats["charset/forced"] += 1
        stats.update(page.extra_stats)
        # Follow-ups land on ASCII "<p>ok</p>" pages: windows-1252 by default.
        stats["charset/source/default"] += ("follow" in page.job) + ("form" in page.job)
    return {key: count for key, count in stats.items() if count}


def check_pages(result: CrawlResult, pages: list[Page]) -> None:
    items = by_name(result)
    for page in pages:
        item = items[page.path]
        if page.skip == "head":
            assert (item["class"], item["text"], item["decision"]) == ("HtmlResponse", "", None)
            continue
        if page.source is None or page.error:
            assert item["text"] == stock_text(page), page.path
            assert item["class"] == page.cls.__name__ and item["decision"] is None, page.path
            assert not [flag for flag in item["flags"] if flag.startswith("charset:")]
            continue
        assert item["class"] == "CharsetHtmlResponse" and item["is_html"], page.path
        assert item["text"] == page.text, page.path
        assert item["encoding"] == page.encoding, page.path
        assert item["decision"]["source"] == page.source, page.path
        assert f"charset:{page.source}" in item["flags"], page.path
    stats = {k: v for k, v in result.stats.items() if k.startswith(("charset/source", "charset/skipped", "charset/changed", "charset/forced", "charset/error"))}  # noqa: E501
    assert stats == expected_charset_stats(pages)


def check_requests_encoded_like_a_browser(server: LocalServer) -> None:
    # Shift_JIS page: the link's query and the form data in Shift_JIS.
    assert server.received("/search")[-1].query == "q=" + quote(JA.encode("cp932"))
    submitted = {r.body for r in server.received("/submit")}
    assert submitted == {
        b"q=" + quote_plus(JA.encode("cp932")).encode("ascii"),
        b"q=" + quote_plus(FR.encode("utf-8")).encode("ascii"),
    }
    # <meta charset=utf-16> means UTF-8 (browsers and the HTML Standard): stock Scrapy reads
    # the page as UTF-16 and never sees this refresh; the middleware (585) runs before
    # MetaRefreshMiddleware (580), which follows it with the query in UTF-8.
    assert server.received("/refreshed")[-1].query == "q=" + quote("café".encode())
    # UTF-16 documents submit and link in UTF-8 (the Encoding Standard's output encoding).
    assert server.received("/u")[-1].query == "q=" + quote(JA.encode("utf-8"))
    # UTF-8 with a stray byte links in UTF-8 (stock Scrapy, reading windows-1252: `caf%E9`).
    assert server.received("/n")[-1].query == "q=" + quote("café".encode())


@pytest.fixture(scope="module")
def site_server() -> Any:
    with LocalServer() as server:
        yield server


def test_crawl_with_the_middleware_on_asyncio(site_server: LocalServer) -> None:
    pages = site()
    result = crawl(
        site_server, pages, {"DOWNLOADER_MIDDLEWARES": MIDDLEWARE, "TWISTED_REACTOR": ASYNCIO}
    )
    assert {item["reactor"] for item in result.items} == {"AsyncioSelectorReactor"}
    check_pages(result, pages)
    check_requests_encoded_like_a_browser(site_server)
    assert result.stat("charset/conflict") == 1
    # One log line per event class, however many responses had the event.
    assert result.log.count("Conflicting encoding declarations") == 1
    assert result.log.count("Forced encoding") == 1


def test_crawl_with_the_addon_and_httpcache_on_the_default_reactor(
    tmp_path: Path,
) -> None:
    """Also injects a real fault: a detector that raises, on the one page that needs it."""
    pages = site()
    for page in pages:
        page.error = page.path == "/detect"
    settings = {
        "ADDONS": {"scrapy_charset.Addon": 0},
        "TWISTED_REACTOR": DEFAULT_REACTOR,
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(tmp_path / "cache"),
        "CHARSET_DETECTOR": "tests.support.spiders:ExplodingDetector",
    }
    with LocalServer() as server:
        first = crawl(server, pages, settings)
        served = len(server.requests)
        second = crawl(server, pages, settings)
        assert len(server.requests) == served  # everything came from the cache
    reactors = {item["reactor"] for item in first.items}
    assert len(reactors) == 1 and "Asyncio" not in reactors.pop()
    # The add-on enabled both parts.
    for part in ("middleware.CharsetMiddleware", "pipeline.CharsetPipeline"):
        assert f"scrapy_charset.integration.{part}" in first.log
    check_pages(first, pages)
    check_pages(second, pages)
    assert second.stat("httpcache/hit") == served

    def charset_stats(result: CrawlResult) -> dict[str, Any]:
        # The middleware's stats (the pipeline's, charset/item/..., see the "cached" flag).
        return {
            k: v
            for k, v in result.stats.items()
            if k.startswith("charset/") and not k.startswith("charset/item/")
        }

    assert charset_stats(first) == charset_stats(second)
    texts = {name: item.get("text") for name, item in by_name(first).items()}
    assert texts == {name: item.get("text") for name, item in by_name(second).items()}
    # The cache holds the bytes from the wire: still gzip-compressed, still Shift_JIS.
    cached = {p.read_bytes() for p in (tmp_path / "cache").rglob("response_body")}
    gzip_page = next(p for p in pages if p.path == "/gzip")
    sjis_page = next(p for p in pages if p.path == "/sjis")
    assert gzip_page.reply.body in cached and sjis_page.reply.body in cached
    # The fault: counted by type, logged once with its traceback, the response kept.
    for result in (first, second):
        assert result.stat("charset/error/RuntimeError") == 1
        assert result.log.count("Internal error while decoding") == 1
        assert result.log.count("RuntimeError: detector failure (injected)") == 1
        assert result.stat("log_count/ERROR") == 1


def test_spider_attribute_opts_out_of_a_crawl(site_server: LocalServer) -> None:
    # (custom_settings={"CHARSET_ENABLED": False} is covered with a real crawler in
    # test_middleware.py: it makes the middleware NotConfigured.)
    pages = [p for p in site() if p.path in {"/sjis", "/c1", "/utf16-meta", "/detect"}]
    for page in pages:
        page.job = {}  # stock Scrapy reads /utf16-meta as UTF-16 and would find no form
    result = crawl(
        site_server,
        pages,
        {"DOWNLOADER_MIDDLEWARES": MIDDLEWARE},
        spider="tests.support.spiders:CharsetOptOutSpider",
    )
    items = by_name(result)
    for page in pages:
        item = items[page.path]
        assert item["class"] == "HtmlResponse" and item["text"] == stock_text(page)
    charset_keys = {k: v for k, v in result.stats.items() if k.startswith("charset/")}
    assert charset_keys == {"charset/skipped/spider": len(pages)}


def test_crawl_with_the_copying_take_over(site_server: LocalServer) -> None:
    """Where Scrapy's responses lack the slots the plugin keeps its state in, the import-time
    check turns the in-place take-over off and responses are copied: the same crawl, the same
    pages, texts, decisions and stats."""
    pages = site()
    result = crawl(
        site_server,
        pages,
        {"DOWNLOADER_MIDDLEWARES": MIDDLEWARE},
        spider="tests.support.copying_spider:CopyingJobsSpider",
    )
    assert {item["in_place"] for item in result.items} == {False}
    check_pages(result, pages)
    check_requests_encoded_like_a_browser(site_server)
