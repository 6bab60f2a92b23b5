"""Every Python example in the documentation (docs/*.md, README.md) runs, and does what it says.

- ``>>>`` blocks are doctests: their printed results are checked.
- Other blocks are executed. Then, by what they define:
  - ``CHARSET_*`` names: read by the plugin's own settings readers, which must accept them and
    end up with a configuration other than the defaults;
  - ``ADDONS`` / ``DOWNLOADER_MIDDLEWARES`` / ``ITEM_PIPELINES``: a real crawl with exactly those
    settings against a local server, checking that the named parts run;
  - a top-level ``parse(self, response)``: called with a response the middleware decoded;
  - ``% test: crawl NAME`` before the block: its spider crawls a local server (scenarios below);
  - ``% test: spidermon-monitors`` / ``spidermon-settings``: the monitor suite runs in a crawl.
"""

from __future__ import annotations

import doctest
import logging
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.settings import Settings

from scrapy_charset.integration.item_decision import SETTING as DECISION_FIELD
from scrapy_charset.integration.item_decision import read_field
from scrapy_charset.integration.pipeline_settings import PipelineConfig
from scrapy_charset.integration.settings import read_settings
from tests.docs.blocks import Block, python_blocks
from tests.integration.test_middleware_support import make_crawler, middleware, response_for
from tests.support.crawl import run_crawl
from tests.support.server import LocalServer, html

BLOCKS = python_blocks()
DOCTESTS = [b for b in BLOCKS if b.code.lstrip().startswith(">>>")]
SCRIPTS = [b for b in BLOCKS if b not in DOCTESTS]
ENABLING = ("ADDONS", "DOWNLOADER_MIDDLEWARES", "ITEM_PIPELINES")

# windows-1252 with byte 81: a browser shows U+0081, stock Scrapy shows U+FFFD.
# A page stock Scrapy misreads with every w3lib: an XML declaration naming ISO-8859-1 before
# a <meta> naming UTF-8, which a browser reads (w3lib reads the XML declaration).
MISREAD_PAGE = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    '<meta charset="utf-8"><title>Größe</title><p>Größe Maß</p>'
).encode()
MISREAD_TYPE = "text/html"


def test_the_docs_have_examples() -> None:
    assert len(DOCTESTS) >= 2
    assert len(SCRIPTS) >= 20
    assert all(b.marker == "" or b.marker.split()[0] in _MARKED for b in BLOCKS), [
        b.id for b in BLOCKS if b.marker
    ]


@pytest.mark.parametrize("block", DOCTESTS, ids=lambda b: b.id)
def test_doctest_block(block: Block) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.code, {}, block.id, str(block.path), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert runner.tries > 0


def _run(block: Block) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    exec(compile(block.code, block.id, "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("block", SCRIPTS, ids=lambda b: b.id)
def test_python_block_runs(block: Block) -> None:
    namespace = _run(block)
    values = {k: v for k, v in namespace.items() if k.startswith("CHARSET_")}
    if values:
        _check_settings(values)


def _check_settings(values: dict[str, Any]) -> None:
    """The example's settings are read without error, and change the configuration."""
    if DECISION_FIELD in values:  # read by the item decision spider middleware
        assert read_field(values.pop(DECISION_FIELD)) is not None
        if not values:
            return
    settings = Settings(values)
    if any(not k.startswith("CHARSET_ITEM_") for k in values):
        crawler = make_crawler(values)
        config = read_settings(settings, crawler)
        assert config != read_settings(Settings(), make_crawler()), values
    if any(k.startswith("CHARSET_ITEM_") for k in values):
        assert PipelineConfig.from_settings(settings) != PipelineConfig(), values


ENABLING_BLOCKS = [
    b for b in SCRIPTS if any(f"\n{name} = " in "\n" + b.code for name in ENABLING)
]


def test_enabling_examples_exist() -> None:
    names = {name for b in ENABLING_BLOCKS for name in ENABLING if name in b.code}
    assert names == set(ENABLING)


@pytest.mark.parametrize("block", ENABLING_BLOCKS, ids=lambda b: b.id)
def test_enabling_example_in_a_crawl(block: Block, local_server: LocalServer) -> None:
    namespace = _run(block)
    settings = {k: namespace[k] for k in ENABLING if k in namespace}
    url = local_server.add("/misread", html(MISREAD_PAGE, MISREAD_TYPE))
    result = run_crawl("tests.support.spiders:TextSpider", settings, {"urls": [url]})
    [item] = result.items
    middleware_on = "ADDONS" in settings or "DOWNLOADER_MIDDLEWARES" in settings
    pipeline_on = "ADDONS" in settings or "ITEM_PIPELINES" in settings
    if middleware_on:
        assert item["title"] == "Größe"
        assert result.stat("charset/source/meta") == 1
    else:
        assert item["title"] == "GrÃ¶ÃŸe"  # stock Scrapy's reading
        assert "charset/source/meta" not in result.stats
    assert (result.stat("charset/item/seen") == 1) is pipeline_on


# -- callbacks --------------------------------------------------------------------------------
CALLBACK_BLOCKS = [b for b in SCRIPTS if b.code.startswith("def parse(self, response)")]


def test_callback_examples_exist() -> None:
    assert len(CALLBACK_BLOCKS) >= 2


@pytest.mark.parametrize("block", CALLBACK_BLOCKS, ids=lambda b: b.id)
def test_callback_example(block: Block, caplog: pytest.LogCaptureFixture) -> None:
    parse = _run(block)["parse"]
    mw, crawler = middleware()
    # Undeclared windows-1251: the encoding is guessed (rule "detection").
    body = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю</p>".encode("cp1251")
    request, response = response_for("http://example.com/ru", body)
    response = mw.process_response(request, response)
    spider = scrapy.Spider("example")
    with caplog.at_level(logging.INFO):
        result = parse(spider, response)
        if result is not None:
            list(result)
    assert "guessed windows-1251 for http://example.com/ru" in caplog.text


# -- spiders crawled against a local server ---------------------------------------------------
JA = "日本語のページ"


def _crawl_shop(server: LocalServer, result_of: Any) -> None:
    server.add("/", html(f"<title>{JA}</title><p>{JA}</p>".encode("cp932"), "text/html"))
    server.add("/raw", html(b"<title>raw</title>", "text/html"))
    result = result_of("ShopSpider", {"base_url": server.url("").rstrip("/")})
    titles = {item["url"].rsplit("/", 1)[-1]: item["title"] for item in result.items}
    assert titles == {"": JA, "raw": "raw"}, result.log[-3000:]
    assert result.stat("charset/source/forced") == 1
    assert result.stat("charset/skipped/dont_charset") == 1


def _crawl_legacy(server: LocalServer, result_of: Any) -> None:
    url = server.add("/", html(MISREAD_PAGE, MISREAD_TYPE))
    result = result_of("LegacySpider", {"start_urls": [url]})
    [item] = result.items
    assert item["title"] == "GrÃ¶ÃŸe"  # stock Scrapy's reading
    assert result.stat("charset/skipped/spider") == 1


CRAWLS = {"shop": _crawl_shop, "legacy": _crawl_legacy}
_MARKED = ("crawl", "spidermon-monitors", "spidermon-settings")
CRAWL_BLOCKS = [b for b in BLOCKS if b.marker.startswith("crawl ")]


def test_crawl_examples_exist() -> None:
    assert sorted(b.marker.split()[1] for b in CRAWL_BLOCKS) == sorted(CRAWLS)


def _module(block: Block, root: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Write the block as module ``name`` (dotted) under ``root``, importable by the crawl."""
    path = root.joinpath(*name.split(".")).with_suffix(".py")
    for package in path.parent.relative_to(root).parents[:-1] or ():
        (root / package / "__init__.py").touch()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent != root:
        (path.parent / "__init__.py").touch()
    path.write_text(block.code, "utf-8")
    monkeypatch.setenv("PYTHONPATH", str(root))


@pytest.mark.parametrize("block", CRAWL_BLOCKS, ids=lambda b: b.id)
def test_crawl_example(
    block: Block, local_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = block.marker.split()[1]
    module = f"docs_example_{scenario}"
    _module(block, tmp_path, monkeypatch, module)

    def result_of(spider: str, kwargs: dict[str, Any]) -> Any:
        return run_crawl(f"{module}:{spider}", {"ADDONS": {"scrapy_charset.Addon": 0}}, kwargs)

    CRAWLS[scenario](local_server, result_of)


# -- Spidermon --------------------------------------------------------------------------------
def _spidermon_blocks() -> tuple[Block, Block]:
    [monitors] = [b for b in BLOCKS if b.marker == "spidermon-monitors"]
    [settings] = [b for b in BLOCKS if b.marker == "spidermon-settings"]
    return monitors, settings


@pytest.mark.parametrize("charset_enabled", [True, False])
def test_spidermon_example(
    charset_enabled: bool,
    local_server: LocalServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monitors, settings_block = _spidermon_blocks()
    _module(monitors, tmp_path, monkeypatch, "myproject.monitors")
    settings = {k: v for k, v in _run(settings_block).items() if k.isupper()}
    settings["ADDONS"] = {"scrapy_charset.Addon": 0}
    settings["CHARSET_ENABLED"] = charset_enabled
    urls = [
        local_server.add("/misread", html(MISREAD_PAGE, MISREAD_TYPE)),
        local_server.add(
            "/ok", html("<title>Größe</title>".encode("cp1252"), "text/html; charset=windows-1252")
        ),
    ]
    result = run_crawl("tests.support.spiders:TextSpider", settings, {"urls": urls})
    log = result.log
    assert "Scraped text is not damaged" in log, log[-3000:]
    for name in ("No internal decoding errors", "No field had a damaged-text spike"):
        assert f"{name}... OK" in log, log[-3000:]
    damaged_ok = "Scraped text is not damaged... OK" in log
    assert damaged_ok is charset_enabled, log[-3000:]
