"""Every setting, request meta key, spider attribute and stats key of the code is documented,
and everything the reference pages document exists in the code.

The names are read from the package's source (``tests/docs/code_names.py``); stats keys are
also collected from a real pipeline and middleware at work, which catches keys built from data
(``charset/item/<counter>``) that the source alone cannot resolve.
"""

from __future__ import annotations

import re
from typing import Any

import scrapy
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.middleware import CharsetMiddleware
from scrapy_charset.integration.pipeline import CharsetPipeline
from scrapy_charset.sniffing import Source
from tests.docs import code_names
from tests.docs.blocks import DOCS, inline_code, prose
from tests.integration.test_middleware_support import (
    build,
    make_crawler,
    middleware,
    response_for,
)


def _page(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


def _mentioned(page: str) -> set[str]:
    """Names written as inline code (`name`) or as the first word of a heading on a page."""
    spans = {span for span in inline_code(DOCS / page) if not re.search(r"\s", span)}
    return spans | set(re.findall(r"^#+ (\S+)", prose(DOCS / page), re.M))


# -- settings -----------------------------------------------------------------------------
def documented_settings() -> set[str]:
    """One heading per setting on the settings page."""
    return set(re.findall(r"^#{2,4} (CHARSET_[A-Z0-9_]+)\s*$", _page("settings.md"), re.M))


def test_every_setting_has_a_heading() -> None:
    code = code_names.settings()
    assert len(code) >= 20
    assert sorted(code - documented_settings()) == []


def test_every_documented_setting_exists() -> None:
    assert sorted(documented_settings() - code_names.settings()) == []


def test_every_setting_heading_has_type_default_and_example() -> None:
    text = _page("settings.md")
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    for section in sections:
        name = section.split("\n", 1)[0].strip()
        assert "- **Type**:" in section, name
        assert "- **Default**:" in section, name
        assert f"{name} = " in section.split("```python", 1)[-1], f"{name}: no example"


# -- request meta keys and spider attributes ----------------------------------------------
def test_every_meta_key_is_documented() -> None:
    code = code_names.meta_keys()
    assert {"dont_charset", "charset_encoding", "charset_decision"} <= code
    assert sorted(code - _mentioned("meta.md")) == []


def test_every_spider_attribute_is_documented() -> None:
    code = code_names.spider_attributes()
    assert "charset_enabled" in code
    assert sorted(code - _mentioned("meta.md")) == []


def test_every_documented_meta_key_and_attribute_exists() -> None:
    headings = set(re.findall(r"^## (\w+)", _page("meta.md"), re.M))
    keys = {h for h in headings if h.startswith(("charset_", "dont_"))}
    assert keys
    assert sorted(keys - code_names.meta_keys() - code_names.spider_attributes()) == []


# -- stats --------------------------------------------------------------------------------
WILD = code_names.WILD


def documented_stats() -> set[str]:
    """Stats keys on the stats page, placeholders (`<path>`) as ``<*>``."""
    keys = {k for k in _mentioned("stats.md") if k.startswith("charset/") and not k.endswith("/")}
    return {re.sub(r"<[^<>/]+>", WILD, key) for key in keys}


def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(".+".join(re.escape(part) for part in pattern.split(WILD)))


def test_every_stats_key_of_the_code_is_documented() -> None:
    documented = documented_stats()
    code = code_names.stats_keys()
    assert len(code) >= 25
    missing = []
    for key in sorted(code):
        if key in documented:
            continue
        # A key built from data the source cannot resolve ("charset/item/<*>"): the runtime
        # test below checks the keys really written.
        if WILD in key and any(_regex(key).fullmatch(doc) for doc in documented):
            continue
        missing.append(key)
    assert missing == []


def test_every_documented_stats_key_exists_in_the_code() -> None:
    code = code_names.stats_keys()
    stale = [
        doc
        for doc in sorted(documented_stats())
        if doc not in code and not any(_regex(k).fullmatch(doc) for k in code if WILD in k)
    ]
    assert stale == []


def _written_stats() -> set[str]:
    """Keys a real pipeline and middleware write, for items and pages of every kind."""
    keys: set[str] = set()
    crawler = get_crawler(
        settings_dict={
            "CHARSET_ITEM_SPIKE_WINDOW": 10,
            "CHARSET_ITEM_ADD_FINDINGS": True,
            "CHARSET_ITEM_DROP_THRESHOLD": 0.9,
            "CHARSET_ITEM_NORMALIZE": "NFKC",
        }
    )
    pipeline = CharsetPipeline.from_crawler(crawler)
    pipeline.open_spider()
    clean, broken, mojibake = "Crème brûlée", "Cr\ufffdme br\ufffdl\ufffde", "CrÃ¨me brÃ»lÃ©e"
    items: list[Any] = [{"title": clean, "offers": [{"seller": "１２３"}]} for _ in range(30)]
    items += [{"title": broken, "offers": [{"seller": mojibake}]} for _ in range(30)]
    items += [{"title": broken}, object(), ("not", "an", "item")]
    for item in items:
        try:
            pipeline.process_item(item)
        except DropItem:
            pass
    pipeline.close_spider()
    keys.update(crawler.stats.get_stats())

    mw, mw_crawler = middleware()
    pages = [
        ("http://a.example/1", b'<meta charset="big5"><p>x', "text/html; charset=utf-8", {}),
        ("http://a.example/2", "<p>Größe".encode("cp1252"), "text/html", {}),
        ("http://a.example/3", b"<p>x", "text/html; charset=bogus", {}),
        ("http://a.example/4", b"<p>\xff", "text/html", {"charset_encoding": "utf-8"}),
        ("http://a.example/5", b"<p>x", "text/html", {"charset_encoding": "no-such-label"}),
        ("http://a.example/6", b"<p>x", "text/html", {"dont_charset": True}),
        ("http://a.example/7", b"", "text/html", {}),
    ]
    for url, body, content_type, meta in pages:
        request, response = response_for(url, body, content_type, meta=meta)
        mw.process_response(request, response)
    for status, method, content_type in [
        (200, "HEAD", "text/html"),
        (304, "GET", "text/html"),
        (301, "GET", "text/html"),
        (200, "GET", "image/png"),
    ]:
        request, response = response_for(
            "http://a.example/x", b"<p>x", content_type, status=status, method=method
        )
        mw.process_response(request, response)
    keys.update(mw_crawler.stats.get_stats())

    class OptedOut(scrapy.Spider):
        name = "opted_out"
        charset_enabled = False

    opted_out = make_crawler(spidercls=OptedOut)
    opted_out.spider = OptedOut()
    mw = build(CharsetMiddleware, opted_out)
    mw.process_response(*response_for("http://a.example/8", b"<p>x"))
    keys.update(opted_out.stats.get_stats())
    return {k for k in keys if k.startswith("charset/")}


def test_every_stats_key_written_at_run_time_is_documented() -> None:
    written = _written_stats()
    # The run covers both parts, and the keys the source alone cannot name.
    assert {"charset/item/with_replacement", "charset/item/mojibake"} <= written
    assert {"charset/source/header", "charset/skipped/dont_charset"} <= written
    patterns = [_regex(doc) for doc in documented_stats()]
    undocumented = sorted(k for k in written if not any(p.fullmatch(k) for p in patterns))
    assert undocumented == []

    # The reasons of charset/skipped/<reason>, each in the table of what passes through.
    reasons = {k.rsplit("/", 1)[1] for k in written if k.startswith("charset/skipped/")}
    every = {"type", "dont_charset", "spider", "head", "not_modified", "redirect", "empty"}
    assert every <= reasons
    assert sorted(reasons - _mentioned("meta.md")) == []


def test_every_source_is_documented() -> None:
    # charset/source/<source>: the rules' names, each in the rules table.
    assert sorted({s.value for s in Source} - _mentioned("decision.md")) == []


# -- command-line options -----------------------------------------------------------------
def _long_options(parser: Any) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings if o.startswith("--")} - {
        "--help"
    }


def _documented_options(page: str) -> set[str]:
    spans = " ".join(inline_code(DOCS / page))
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", spans)) - {"--help"}


def test_every_audit_option_is_documented_and_exists() -> None:
    from scrapy_charset.tools.audit import build_parser

    options = _long_options(build_parser())
    assert len(options) >= 15
    documented = _documented_options("audit.md")
    assert sorted(options - documented) == []
    # The page also names the options of the audit's benchmark (benchmarks/bench_audit.py).
    bench = (DOCS.parent / "benchmarks" / "bench_audit.py").read_text("utf-8")
    bench_options = set(re.findall(r"[\"'](--[a-z][a-z0-9-]*)[\"']", bench))
    assert sorted(documented - options - bench_options) == []


# -- supported versions -------------------------------------------------------------------
def test_supported_versions_name_what_ci_pins() -> None:
    """Every Scrapy, Twisted or w3lib version that .ci/run pins is named where CI is described."""
    ci = (DOCS.parent / ".ci" / "run").read_text("utf-8")
    text = _page("getting-started.md")
    section = text[text.index("(supported-versions)=") :]
    section = section[: section.index("\n## ")]
    pins = re.findall(r"(?i)\b(scrapy|twisted|w3lib)\s*(==|<|<=)\s*([\d.]+)", ci)
    for name, _op, version in pins:
        assert version in section, f"{name} {version} (pinned in .ci/run) is not in the section"
    assert "python -m pytest" in ci and "sphinx-build" in ci
    assert "**CI**" in section
