"""``python -m scrapy_charset demo``: stock Scrapy and scrapy-charset on the same pages.

Serves the bundled site (:mod:`scrapy_charset.tools.demo_site`) on 127.0.0.1, crawls it twice
in one reactor (once with stock Scrapy, once with the add-on enabled), and prints what each
crawl read from every page next to what a browser shows.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .demo_site import PAGES, DemoPage, DemoSite, serve

WIDTH = 98  # fits a 100-column terminal
INDENT = 4
COLUMN = (WIDTH - INDENT) // 2

PLUGIN_SETTINGS: dict[str, Any] = {"ADDONS": {"scrapy_charset.Addon": 100}}


@dataclass(frozen=True)
class PageRead:
    """What one crawl read from one page."""

    title: str | None
    snippet: str | None
    encoding: str
    source: str | None = None  # the rule that decided, when scrapy-charset decided

    def matches(self, expected: str) -> bool:
        return self.title == expected and self.snippet == expected


@dataclass
class CrawlOutcome:
    name: str
    reads: dict[str, PageRead] = field(default_factory=dict)  # by URL path
    stats: dict[str, Any] = field(default_factory=dict)
    # Signal receivers are held weakly by Scrapy; keep them alive here.
    receivers: list[Any] = field(default_factory=list, repr=False)

    def right(self, page: DemoPage) -> bool:
        read = self.reads.get(page.path)
        return read is not None and read.matches(page.expected)

    def garbled(self, pages: Sequence[DemoPage]) -> list[DemoPage]:
        return [page for page in pages if not self.right(page)]


# -- crawling --------------------------------------------------------------------------------


def _spider_classes() -> tuple[type[Any], type[Any]]:
    """The two spiders, defined here so that importing this module does not import Scrapy."""
    import scrapy

    class DemoSpider(scrapy.Spider):
        name = "demo_stock"

        def __init__(self, base_url: str = "", **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.start_urls = [base_url + "/"]

        def parse(self, response: Any) -> Iterator[Any]:
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, callback=self.parse_page)

        def parse_page(self, response: Any) -> Iterator[dict[str, Any]]:
            decision = getattr(response, "charset_decision", None)
            yield {
                "path": urlsplit(response.url).path,
                "title": response.css("title::text").get(),
                "snippet": response.css("#s::text").get(),
                "encoding": decision.encoding.name if decision else response.encoding,
                "source": str(decision.source) if decision else None,
            }

    class PluginSpider(DemoSpider):
        name = "demo_plugin"
        custom_settings = PLUGIN_SETTINGS

    return DemoSpider, PluginSpider


def crawl_both(site: DemoSite) -> tuple[CrawlOutcome, CrawlOutcome]:
    """Crawl ``site`` with stock Scrapy and with scrapy-charset, both in one reactor."""
    import warnings

    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.exceptions import ScrapyDeprecationWarning

    # Old Scrapy versions warn about defaults the demo does not depend on.
    warnings.filterwarnings("ignore", category=ScrapyDeprecationWarning)
    process = CrawlerProcess(
        settings={
            "LOG_LEVEL": "ERROR",
            "TELNETCONSOLE_ENABLED": False,
            "DOWNLOAD_TIMEOUT": 20,
            "CLOSESPIDER_TIMEOUT": 60,
        }
    )
    outcomes = []
    for label, spider_cls in zip(
        ("stock Scrapy", "scrapy-charset"), _spider_classes(), strict=True
    ):
        outcome = CrawlOutcome(label)
        crawler = process.create_crawler(spider_cls)
        on_item, on_closed = _item_collector(outcome), _stats_collector(outcome, crawler)
        outcome.receivers += [on_item, on_closed]
        crawler.signals.connect(on_item, signal=signals.item_scraped)
        crawler.signals.connect(on_closed, signal=signals.spider_closed)
        process.crawl(crawler, base_url=site.base_url)
        outcomes.append(outcome)
    process.start()
    return outcomes[0], outcomes[1]


def _item_collector(outcome: CrawlOutcome) -> Any:
    def on_item(item: dict[str, Any]) -> None:
        outcome.reads[item["path"]] = PageRead(
            item["title"], item["snippet"], item["encoding"], item["source"]
        )

    return on_item


def _stats_collector(outcome: CrawlOutcome, crawler: Any) -> Any:
    def on_closed(spider: Any) -> None:
        outcome.stats.update(crawler.stats.get_stats())

    return on_closed


# -- printing --------------------------------------------------------------------------------


def printable(text: str | None) -> str:
    """``text`` for a terminal: control characters (C0, C1) shown as ``\\xNN`` escapes."""
    if text is None:
        return "(nothing)"
    return "".join(
        f"\\x{ord(char):02x}" if unicodedata.category(char) == "Cc" else char for char in text
    )


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def fit(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` terminal columns (with "…") and pad it to exactly that width."""
    if display_width(text) > width:
        while display_width(text) > width - 1:
            text = text[:-1]
        text += "…"
    return text + " " * (width - display_width(text))


def _cell(outcome: CrawlOutcome, page: DemoPage) -> tuple[str, str]:
    read = outcome.reads.get(page.path)
    if read is None:
        return "✗ (page not crawled)", ""
    mark = "✓" if outcome.right(page) else "✗"
    text = read.snippet if read.snippet == read.title else f"{read.snippet} | {read.title}"
    used = read.encoding if read.source is None else f"{read.encoding} ({read.source})"
    return f"{mark} {printable(text)}", f"  {used}"


def render_table(pages: Sequence[DemoPage], stock: CrawlOutcome, plugin: CrawlOutcome) -> str:
    lines = [
        " " * INDENT + fit(stock.name, COLUMN) + plugin.name,
        " " * INDENT + fit("-" * (COLUMN - 2), COLUMN) + "-" * (COLUMN - 2),
    ]
    for number, page in enumerate(pages, 1):
        left, right = _cell(stock, page), _cell(plugin, page)
        lines.append(fit(f"{number:>2}. {page.slug}: {page.summary}", WIDTH).rstrip())
        lines.append(" " * INDENT + fit(left[0], COLUMN) + fit(right[0], COLUMN).rstrip())
        lines.append(" " * INDENT + fit(left[1], COLUMN) + fit(right[1], COLUMN).rstrip())
    return "\n".join(lines)


def render_garbled(pages: Sequence[DemoPage], outcome: CrawlOutcome) -> str:
    garbled = outcome.garbled(pages)
    right = len(pages) - len(garbled)
    verdict = f"{outcome.name} read {right} of {len(pages)} pages as a browser does"
    lines = [f"{verdict}; garbled {len(garbled)}:" if garbled else f"{verdict}."]
    for page in garbled:
        read = outcome.reads.get(page.path)
        lines.append(fit(f"    {page.slug}: {page.summary}", WIDTH).rstrip())
        lines.append(f"        browser shows  {printable(page.expected)}")
        if read is None:
            lines.append("        got            (page not crawled)")
        else:
            lines.append(f"        got title      {printable(read.title)}")
            lines.append(f"        got <p>        {printable(read.snippet)}")
    return "\n".join(lines)


def _stat_value(value: Any) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def render_stats(outcome: CrawlOutcome) -> str:
    """The ``charset/...`` stats, two to a line when they fit."""
    cells = [
        f"{key}: {_stat_value(outcome.stats[key])}"
        for key in sorted(outcome.stats)
        if key.startswith("charset/")
    ]
    lines = [f"{outcome.name} stats (charset/...):"]
    if not cells:
        return "\n".join([*lines, "    (none)"])
    if max(map(display_width, cells)) >= COLUMN:
        return "\n".join(lines + [" " * INDENT + cell for cell in cells])
    half = (len(cells) + 1) // 2  # the left column; the right one a cell shorter if odd
    rights = cells[half:] + [""] * (2 * half - len(cells))
    for left, right in zip(cells[:half], rights, strict=True):
        lines.append((" " * INDENT + fit(left, COLUMN) + right).rstrip())
    return "\n".join(lines)


def render_report(
    site_url: str,
    pages: Sequence[DemoPage],
    stock: CrawlOutcome,
    plugin: CrawlOutcome,
    seconds: float,
) -> str:
    import scrapy

    from .. import __version__

    intro = textwrap.fill(
        f"{len(pages)} pages served at {site_url}/, crawled by stock Scrapy {scrapy.__version__} "
        f"and by Scrapy with scrapy-charset {__version__} in {seconds:.1f} s. Each page holds "
        "the same text in its <title> and <p>; ✓ means a crawl read both as a browser shows them.",
        WIDTH,
    )
    return "\n\n".join(
        [
            intro,
            render_table(pages, stock, plugin),
            render_garbled(pages, stock),
            render_garbled(pages, plugin),
            render_stats(plugin),
        ]
    )


# -- entry point -----------------------------------------------------------------------------


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_charset demo",
        description="Crawl a bundled local site with stock Scrapy and with scrapy-charset, "
        "and print side by side what each read.",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="only serve the demo site on 127.0.0.1 until interrupted (e.g. for the example "
        "project's `scrapy crawl pages -a base_url=...`)",
    )
    parser.add_argument("--port", type=int, default=0, help="port for --serve (default: free)")
    return parser.parse_args(list(argv))


def _serve_forever(port: int) -> int:
    try:
        site = DemoSite(PAGES, port).start()
    except (OSError, OverflowError) as exc:  # port taken, not allowed, or out of range
        print(f"cannot serve on 127.0.0.1 port {port}: {exc}", file=sys.stderr)
        return 2
    print(f"serving the demo site at {site.base_url}/ (Ctrl-C to stop)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        site.stop()
    return 0


def _utf8_safe_stdout() -> None:
    # Never crash on a terminal that cannot show CJK text: escape what it cannot show.
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    _utf8_safe_stdout()
    if args.serve:
        return _serve_forever(args.port)
    started = time.perf_counter()
    with serve(PAGES) as site:
        stock, plugin = crawl_both(site)
    seconds = time.perf_counter() - started
    print(render_report(site.base_url, PAGES, stock, plugin, seconds))
    # Exit 0 only when every page was crawled and scrapy-charset read each one as a browser does.
    return 0 if not plugin.garbled(PAGES) else 1
