"""The demo: its bundled site (real bytes, real encodings) and `python -m scrapy_charset demo`."""

from __future__ import annotations

import codecs
import http.client
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from scrapy_charset.sniffing import decode_html, sniff
from scrapy_charset.tools.demo import CrawlOutcome, display_width, fit, printable, render_stats
from scrapy_charset.tools.demo_site import PAGES, DemoPage, encode_windows_1252, serve
from tests.support.scrapy_compat import W3LIB_STANDARD

REPO = Path(__file__).resolve().parents[2]


def page(slug: str) -> DemoPage:
    (found,) = [p for p in PAGES if p.slug == slug]
    return found


def fetch(base_url: str, path: str) -> http.client.HTTPResponse:
    host, port = base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", path)
    return connection.getresponse()


# -- the bundled pages are the real failure modes, in real bytes -------------------------------


def test_shift_jis_price_range_is_the_wave_dash_byte_pair() -> None:
    body = page("shift-jis-wave-dash").body
    assert b"1,000\x81\x602,000" in body
    # Browsers (and cp932) read 81 60 as U+FF5E; Python's strict shift_jis says U+301C.
    assert "1,000～2,000" in body.decode("cp932")
    assert "1,000\u301c2,000" in body.decode("shift_jis")


def test_gb2312_page_needs_gbk() -> None:
    body = page("gb2312-gbk-only").body
    with pytest.raises(UnicodeDecodeError):
        body.decode("gb2312")
    assert "朱镕基 喆 堃" in body.decode("gbk")


def test_euc_kr_page_needs_uhc() -> None:
    body = page("euc-kr-uhc").body
    with pytest.raises(UnicodeDecodeError):
        body.decode("euc_kr")
    assert "똠방각하" in body.decode("cp949")


def test_iso_8859_1_page_has_euro_as_byte_80() -> None:
    demo = page("iso-8859-1-euro")
    assert demo.content_type == "text/html; charset=ISO-8859-1"
    assert b"25 \x80 \x96" in demo.body
    assert "25 \x80 \x96" in demo.body.decode("latin-1")  # what the label says
    assert "25 € –" in demo.body.decode("cp1252")  # what browsers show


def test_windows_1252_page_has_bytes_cp1252_leaves_undefined() -> None:
    body = page("windows-1252-c1").body
    assert b"Gr\xf6\xdfe \x81 Ma\xdf \x8d" in body
    with pytest.raises(UnicodeDecodeError):
        body.decode("cp1252")
    assert "Größe \x81 Maß \x8d" in body.decode("latin-1")


def test_encode_windows_1252_fills_only_the_five_holes() -> None:
    assert encode_windows_1252("€\x81\x8d\x8f\x90\x9d") == b"\x80\x81\x8d\x8f\x90\x9d"
    with pytest.raises(UnicodeEncodeError):
        encode_windows_1252("\x80")  # U+0080 has no windows-1252 byte


def test_late_meta_pages_declare_past_the_prescan() -> None:
    assert page("late-meta").body.find(b'<meta charset="windows-1251">') > 1024
    assert page("meta-after-4k").body.find(b'<meta charset="windows-1250">') > 4096


def test_undeclared_and_bom_pages_carry_no_declaration() -> None:
    for slug in ("shift-jis-undeclared", "utf8-bom", *sorted(UNDECLARED_GARBLED)):
        demo = page(slug)
        assert demo.content_type == "text/html"
        assert b"charset" not in demo.body
    assert page("utf8-bom").body.startswith(codecs.BOM_UTF8)


def test_every_page_holds_its_expected_text_in_title_and_p() -> None:
    assert len({p.slug for p in PAGES}) == len(PAGES)
    for demo in PAGES:
        markup = demo.body.decode("latin-1")
        assert "<title>" in markup and '<p id="s">' in markup, demo.slug


def test_the_sniffing_layer_agrees_with_the_browser_record() -> None:
    for demo in PAGES:
        decision = sniff(demo.body, demo.content_type, url="http://127.0.0.1/")
        assert (decision.encoding.name, decision.source.value) == (demo.encoding, demo.rule)
        text, _ = decode_html(demo.body, demo.content_type, url="http://127.0.0.1/")
        assert f'<p id="s">{demo.expected}</p>' in text, demo.slug


# -- the local server ------------------------------------------------------------------------


def test_server_sends_the_exact_bytes_and_header() -> None:
    with serve() as site:
        for demo in PAGES:
            response = fetch(site.base_url, demo.path)
            assert response.status == 200
            assert response.getheader("Content-Type") == demo.content_type
            assert response.read() == demo.body
        index = fetch(site.base_url, "/").read().decode("ascii")
        assert all(f'href="{demo.path}"' in index for demo in PAGES)
        missing = fetch(site.base_url, "/nope.html")
        assert missing.status == 404
        missing.read()


# -- terminal output helpers -----------------------------------------------------------------


def test_printable_escapes_control_characters_only() -> None:
    assert printable("Größe \x81 Maß \x8d\t") == "Größe \\x81 Maß \\x8d\\x09"
    assert printable("価格 �") == "価格 �"
    assert printable(None) == "(nothing)"


def test_fit_counts_wide_characters_as_two_columns() -> None:
    assert display_width("JRA日本") == 7
    assert fit("日本語", 8) == "日本語  "
    cut = fit("日本中央競馬会", 8)
    assert display_width(cut) == 8 and cut.startswith("日本中") and "…" in cut


# -- the expected text is what a real browser shows ------------------------------------------


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="needs a Chromium binary on PATH")
def test_expected_text_is_what_chromium_shows() -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with serve() as site, playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=args)
        try:
            tab = browser.new_page()
            for demo in PAGES:
                tab.goto(site.url(demo))
                shown = tab.evaluate(
                    "[document.characterSet, document.title,"
                    " document.getElementById('s').textContent]"
                )
                assert shown == [demo.encoding, demo.expected, demo.expected], demo.slug
        finally:
            browser.close()


# -- the demo command, run for real ----------------------------------------------------------

# Stock Scrapy reads these pages differently from a browser (observed with Scrapy 2.11-2.19):
# Python's cp1252 has no bytes 81/8D, w3lib honours an XML declaration over <meta>, and a
# <meta> UTF-16 is taken literally.
# From w3lib 2.6 on, stock Scrapy decodes windows-1252 as the standard does and reads a
# <meta> naming UTF-16 as UTF-8, as browsers do.
# Undeclared legacy pages: Scrapy 2.11 reads them as cp1252; Scrapy 2.19 guesses with
# charset-normalizer, which takes the Lithuanian page for cp1252 and finds no encoding for the
# EUC-JP one (so Scrapy falls back to ascii, which w3lib 2.6 decodes as windows-1252).
UNDECLARED_GARBLED = {"euc-jp-undeclared", "windows-1257-undeclared"}
STOCK_GARBLES = UNDECLARED_GARBLED | (
    {"xml-declaration"} if W3LIB_STANDARD else {"windows-1252-c1", "xml-declaration", "meta-utf-16"}
)


@pytest.fixture(scope="module")
def demo_output() -> str:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_charset", "demo"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=REPO,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _verdict(output: str, side: str) -> tuple[int, set[str]]:
    """How many pages ``side`` read right, and the slugs listed under it as garbled."""
    pattern = rf"^{side} read (\d+) of {len(PAGES)} pages as a browser does(.*?)(?:\n\n|\Z)"
    match = re.search(pattern, output, re.M | re.S)
    assert match, output
    return int(match.group(1)), set(re.findall(r"^    ([a-z0-9-]+): ", match.group(2), re.M))


def test_demo_plugin_reads_every_page_as_the_browser(demo_output: str) -> None:
    assert _verdict(demo_output, "scrapy-charset") == (len(PAGES), set())


def test_demo_stock_scrapy_garbles_the_pages_it_really_garbles(demo_output: str) -> None:
    right, garbled = _verdict(demo_output, "stock Scrapy")
    assert STOCK_GARBLES <= garbled
    assert right == len(PAGES) - len(garbled)
    # What stock Scrapy showed for the C1 page is the replacement character (before w3lib 2.6).
    assert ("got <p>        Größe \ufffd Maß \ufffd" in demo_output) is not W3LIB_STANDARD


def test_demo_prints_the_plugin_stats_per_rule(demo_output: str) -> None:
    stats = dict(re.findall(r"(charset/source/\w+): (\d+)", demo_output))
    expected = Counter(demo.rule for demo in PAGES)
    expected["header"] += 1  # the index page: text/html; charset=utf-8
    assert {key: int(value) for key, value in stats.items()} == {
        f"charset/source/{rule}": count for rule, count in expected.items()
    }


def test_demo_fits_a_100_column_terminal(demo_output: str) -> None:
    assert max(display_width(line) for line in demo_output.splitlines()) <= 100


def test_demo_serve_mode_serves_the_site() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "scrapy_charset", "demo", "--serve"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        base_url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert base_url, line
        demo = page("euc-kr-uhc")
        assert fetch(base_url.group(), demo.path).read() == demo.body
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_demo_serve_mode_reports_a_port_it_cannot_use() -> None:
    with serve() as site:  # the port is taken
        done = subprocess.run(
            [sys.executable, "-m", "scrapy_charset", "demo", "--serve", "--port", str(site.port)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )
    assert done.returncode == 2
    assert f"cannot serve on 127.0.0.1 port {site.port}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("count", [0, 1, 2, 3, 25, 26])
def test_stats_are_rendered_two_to_a_line_for_any_count(count: int) -> None:
    # An even number of charset/... stats made the demo raise (a ValueError from zip).
    stats = {f"charset/encoding/e{i:02}": i + 1 for i in range(count)}
    stats["downloader/request_count"] = 3  # not a charset/ key: left out
    lines = render_stats(CrawlOutcome("plugin", stats=stats)).splitlines()
    assert lines[0] == "plugin stats (charset/...):"
    shown = " ".join(lines[1:])
    for i in range(count):
        assert f"charset/encoding/e{i:02}: {i + 1}" in shown
    assert "downloader" not in shown
    assert len(lines) - 1 == max(1, (count + 1) // 2)
