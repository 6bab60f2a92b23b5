"""A JOBDIR crawl paused with the plugin and resumed without it (a rollback, or a worker of a
distributed crawl without it) fetches every request the first run queued, as stock Scrapy does.

Requests made with a response's ``encoding`` (``FormRequest.from_response``,
``scrapy.Request(..., encoding=response.encoding)``, ``follow(..., encoding=...)``) carry the
plugin's codec name (``scrapy-charset-windows-1252``); the disk queue stores the request's
encoding, and a name that exists only while the plugin is imported made every such request fail
to load (``LookupError``): lost. The middleware gives a scheduled request Python's codec for the
same output encoding (``cp1252``); the request's URL and body are already the browser's bytes.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest

from tests.integration.test_middleware_support import version_settings
from tests.support.crawl import run_crawl
from tests.support.server import LocalServer, html

SPIDER = "tests.support.spiders:FormsSpider"
PAGES = {
    "windows-1252": (
        "cp1252",
        "Größe – 20 €",
        # A character windows-1252 lacks is sent as &#N; (as a browser does).
        "Größe – 20 €&#26085;",
        "日",
    ),
    "shift_jis": ("cp932", "東京～大阪", "東京～大阪&#233;", "é"),
}


def page(label: str, value: str, extra: str) -> str:
    return (
        f"<html><head><meta charset='{label}'></head><body>"
        f"<form action='/get'><input name='q' value='{value}{extra}'></form>"
        f"<form action='/post' method='post'><input name='q' value='{value}{extra}'>"
        "<input type='submit' name='go' value='ok'></form></body></html>"
    )


@pytest.mark.parametrize("label", list(PAGES))
def test_requests_queued_with_the_plugin_load_without_it(tmp_path: Path, label: str) -> None:
    codec, value, sent, extra = PAGES[label]
    with LocalServer() as server:
        server.add("/", html(page(label, value, extra).encode(codec, "xmlcharrefreplace")))
        for path in ("/get", "/post", "/link"):
            server.add(path, html(b"<p>ok</p>"))
        settings = {"LOG_LEVEL": "INFO", "JOBDIR": str(tmp_path / "job"), **version_settings()}
        links = [f"/link?q={value}"]
        first = run_crawl(
            SPIDER,
            {**settings, "ADDONS": {"scrapy_charset.Addon": 0}, "CLOSESPIDER_PAGECOUNT": 1},
            {"url": server.url("/"), "links": links},
        )
        assert "Spider closed (closespider_pagecount)" in first.log, first.log
        assert first.items == []  # everything after the first page is queued
        second = run_crawl(SPIDER, settings, {})
        assert "Spider closed (finished)" in second.log, second.log
        assert second.stat("log_count/ERROR") == 0, second.log
        # Every queued request was fetched, by a process that never imported the plugin,
        # with the bytes a browser sends (written by the first run).
        assert len(second.items) == 4, second.log
        assert not any(item["plugin"] for item in second.items)
        expected = sent.encode(codec)
        [get] = server.received("/get")
        assert unquote_to_bytes(get.query.replace("+", " ")) == b"q=" + expected
        [post] = server.received("/post")
        assert unquote_to_bytes(post.body.replace(b"+", b" ")) == b"q=" + expected + b"&go=ok"
        links_received = server.received("/link")
        assert len(links_received) == 2
        for request in links_received:
            assert unquote_to_bytes(request.query).startswith(b"q=" + value.encode(codec))


def test_every_plugin_codec_has_a_portable_codec_python_knows() -> None:
    # Each scrapy-charset-<name> maps to a codec of Python's own (its output encoding's),
    # found in a process that never imports the plugin; any other name maps to none.
    import subprocess
    import sys

    from scrapy_charset.encoding import ALL_ENCODINGS
    from scrapy_charset.encoding.pycodecs import codec_name
    from scrapy_charset.integration.response import portable_codec

    names = {}
    for encoding in ALL_ENCODINGS:
        portable = portable_codec(codec_name(encoding))
        assert portable is not None
        names[encoding.name] = portable
        assert portable_codec(codec_name(encoding).upper()) == portable
    assert names["windows-1252"] == "cp1252"
    assert names["UTF-16LE"] == names["replacement"] == "utf-8"
    for other in ("utf-8", "cp1252", "latin-1", "mac_roman", "nope", ""):
        assert portable_codec(other) is None
    script = (
        "import codecs, sys; [codecs.lookup(n) for n in sys.argv[1:]];"
        "print('scrapy_charset' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, *set(names.values())],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert result.stdout.strip() == "False"
