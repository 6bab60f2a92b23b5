"""A known mix of pages in real encodings, and the audit's record for each of them.

The mix is shared by the other audit tests (files, HTTP cache, WARC, command line), which
assert the summary table's numbers for it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from scrapy_charset.sniffing import decode_html
from scrapy_charset.tools.audit import build_parser
from scrapy_charset.tools.audit import run as audit_run
from scrapy_charset.tools.audit_compare import (
    audit_page,
    first_difference,
    requests_text,
    tld_of,
)
from scrapy_charset.tools.audit_decoding import MiddlewareDecoder
from scrapy_charset.tools.audit_inputs import Page
from tests.support.server import LocalServer, Reply, html

MIDDLEWARE = MiddlewareDecoder()  # what the audit decodes with under default settings


@dataclass(frozen=True)
class MixPage:
    path: str
    host: str  # the page's host name, for its TLD
    body: bytes
    content_type: str | None
    # What the audit must find:
    encoding: str
    source: str
    requests_same: bool
    scrapy_same: bool
    utf8_same: bool
    late_meta: bool = False
    conflict: bool = False
    bom: str | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}{self.path}"

    @property
    def tld(self) -> str:
        return self.host.rsplit(".", 1)[-1]

    @property
    def name(self) -> str:
        return self.path.strip("/").replace("/", "-")


def _doc(head: str, body: str) -> str:
    return f"<!DOCTYPE html>\n<html><head>{head}</head>\n<body>{body}</body></html>\n"


_LONG_SCRIPT = "<script>\n" + "var filler = 'keeps the parser in head';\n" * 40 + "</script>"

MIX: tuple[MixPage, ...] = (
    # UTF-8 declared only in <meta>: requests falls back to ISO-8859-1 for text/*.
    MixPage(
        "/de/meta-utf8",
        "www.zeitung.de",
        _doc('<meta charset="utf-8"><title>Grüße</title>', "<p>Straße, Größe, Übung</p>").encode(),
        "text/html",
        "UTF-8", "meta", requests_same=False, scrapy_same=True, utf8_same=True,
    ),
    # The <meta> sits past the first 1024 bytes (after a long inline script in <head>).
    MixPage(
        "/de/late-meta",
        "shop.example.de",
        _doc(
            "<title>Katalog</title>" + _LONG_SCRIPT
            + '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
            "<p>Käse und Brötchen</p>",
        ).encode(),
        "text/html",
        "UTF-8", "late_meta", requests_same=False, scrapy_same=True, utf8_same=True,
        late_meta=True,
    ),
    # The header says UTF-8, the <meta> says Big5; the header wins.
    MixPage(
        "/tw/header-vs-meta",
        "news.example.tw",
        _doc('<meta charset="big5"><title>新聞</title>', "<p>繁體中文的新聞網站</p>").encode(),
        "text/html; charset=utf-8",
        "UTF-8", "header", requests_same=True, scrapy_same=True, utf8_same=True,
        conflict=True,
    ),
    # A UTF-8 byte order mark and no declaration at all.
    MixPage(
        "/tw/bom",
        "blog.example.tw",
        b"\xef\xbb\xbf" + _doc("<title>部落格</title>", "<p>今天的天氣很好</p>").encode(),
        "text/html",
        "UTF-8", "bom", requests_same=False, scrapy_same=True, utf8_same=False,
        bom="UTF-8",
    ),
    # Shift_JIS from the header; "①" exists in Windows' Shift_JIS (as browsers decode it) but not
    # in Python's shift_jis codec, which requests uses for the label.
    MixPage(
        "/jp/shift-jis",
        "www.example.jp",
        _doc('<meta charset="Shift_JIS"><title>お知らせ</title>', "<p>① 日本語のページです</p>")
        .encode("cp932"),
        "text/html; charset=Shift_JIS",
        "Shift_JIS", "header", requests_same=False, scrapy_same=True, utf8_same=False,
    ),
    # EUC-JP declared only in <meta>.
    MixPage(
        "/jp/euc-jp",
        "shop.example.jp",
        _doc('<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">',
             "<p>商品の一覧</p>").encode("euc-jp"),
        "text/html",
        "EUC-JP", "meta", requests_same=False, scrapy_same=True, utf8_same=False,
    ),
    # windows-1251 declared only in <meta>.
    MixPage(
        "/ru/cp1251",
        "www.example.ru",
        _doc('<meta charset="windows-1251"><title>Новости</title>', "<p>Привет, мир</p>")
        .encode("cp1251"),
        "text/html",
        "windows-1251", "meta", requests_same=False, scrapy_same=True, utf8_same=False,
    ),
    # KOI8-R from the header, no <meta>.
    MixPage(
        "/ru/koi8-r",
        "forum.example.ru",
        _doc("<title>Форум</title>", "<p>Добро пожаловать</p>").encode("koi8-r"),
        "text/html; charset=KOI8-R",
        "KOI8-R", "header", requests_same=True, scrapy_same=True, utf8_same=False,
    ),
    # Pure ASCII: every decoder agrees.
    MixPage(
        "/com/ascii",
        "www.example.com",
        _doc('<meta charset="utf-8"><title>Plain</title>', "<p>Nothing but ASCII.</p>").encode(),
        "text/html",
        "UTF-8", "meta", requests_same=True, scrapy_same=True, utf8_same=True,
    ),
    # UTF-8 with no declaration anywhere: browsers see that it is valid UTF-8.
    MixPage(
        "/com/undeclared-utf8",
        "api.example.com",
        _doc("<title>Menu</title>", "<p>Crème brûlée, café, naïve</p>").encode(),
        "text/html",
        "UTF-8", "utf8", requests_same=False, scrapy_same=True, utf8_same=True,
    ),
    # An XML declaration naming ISO-8859-1 before a <meta> naming UTF-8: browsers read the
    # <meta> (an XML declaration is no HTML declaration); Scrapy (w3lib) reads the XML one.
    MixPage(
        "/com/xml-declaration",
        "docs.example.com",
        (
            '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
            + _doc('<meta charset="utf-8"><title>Résumé</title>', "<p>Déjà vu</p>")
        ).encode(),
        "text/html",
        "UTF-8", "meta", requests_same=False, scrapy_same=False, utf8_same=True,
    ),
)

# The summary the audit must print for MIX grouped by TLD:
# (pages, not UTF-8, garbled by requests, by Scrapy, by UTF-8 decode, late meta, conflicts, BOM)
EXPECTED_BY_TLD: dict[str, tuple[int, int, int, int, int, int, int, int]] = {
    "com": (3, 0, 2, 1, 0, 0, 0, 0),
    "de": (2, 0, 2, 0, 0, 1, 0, 0),
    "jp": (2, 2, 2, 0, 2, 0, 0, 0),
    "ru": (2, 2, 1, 0, 2, 0, 0, 0),
    "tw": (2, 0, 1, 0, 1, 0, 1, 1),
}
EXPECTED_TOTAL = (11, 4, 8, 1, 5, 1, 1, 1)


def serve_mix(server: LocalServer) -> None:
    for page in MIX:
        server.add(page.path, html(page.body, page.content_type))


def mix_page(page: MixPage, kind: str = "file") -> Page:
    return Page(
        kind=kind,
        origin=page.path,
        body=page.body,
        content_types=(page.content_type,) if page.content_type else (),
        url=page.url,
    )


def test_expected_totals_add_up() -> None:
    columns = list(zip(*EXPECTED_BY_TLD.values(), strict=True))
    assert tuple(sum(c) for c in columns) == EXPECTED_TOTAL
    assert EXPECTED_TOTAL[0] == len(MIX)
    assert sum(not p.requests_same for p in MIX) == EXPECTED_TOTAL[2]
    assert sum(not p.scrapy_same for p in MIX) == EXPECTED_TOTAL[3]
    assert sum(not p.utf8_same for p in MIX) == EXPECTED_TOTAL[4]


@pytest.mark.parametrize("page", MIX, ids=lambda p: p.name)
def test_record_of_each_mix_page(page: MixPage) -> None:
    record = audit_page(mix_page(page), MIDDLEWARE)
    assert record.error is None
    assert record.tld == page.tld
    assert (record.encoding, record.source) == (page.encoding, page.source)
    assert record.not_utf8 == (page.encoding != "UTF-8")
    assert record.late_meta == page.late_meta
    assert record.conflict == page.conflict
    assert record.bom == page.bom
    browser_text, _ = decode_html(page.body, page.content_type, url=page.url)
    assert record.replacement_chars == browser_text.count("\ufffd")
    for name, same in (
        ("requests", page.requests_same),
        ("scrapy", page.scrapy_same),
        ("utf8", page.utf8_same),
    ):
        result = record.defaults[name]
        assert result is not None
        assert result.same == same, name
        if same:
            assert result.diff is None
        else:
            assert result.diff is not None
            offset = result.diff["offset"]
            # The snippet starts at most 20 characters before the first difference.
            assert browser_text[offset:offset + 1] != ""
            assert result.diff["browser"] in browser_text


def test_conflict_lists_the_losing_meta() -> None:
    page = next(p for p in MIX if p.conflict)
    record = audit_page(mix_page(page), MIDDLEWARE)
    assert record.overridden == [{"source": "meta", "label": "big5", "encoding": "Big5"}]


def test_error_page_is_reported_not_decoded() -> None:
    page = Page(kind="file", origin="gone.html", error="cannot read file: missing")
    record = audit_page(page, MIDDLEWARE)
    assert record.error == "cannot read file: missing"
    assert record.encoding is None and record.defaults == {}
    assert record.to_dict()["requests_same"] is None


def test_browser_failure_becomes_an_error_record() -> None:
    def broken(body: bytes, content_type: object = None, **kwargs: object) -> tuple[str, object]:
        raise RuntimeError("boom")

    record = audit_page(mix_page(MIX[0]), broken)  # type: ignore[arg-type]
    assert record.error == "browser decoding failed: RuntimeError: boom"


def test_first_difference() -> None:
    assert first_difference("abc", "abc") == 3
    assert first_difference("abc", "abd") == 2
    assert first_difference("ab", "abc") == 2
    long = "x" * 100_000
    assert first_difference(long + "a" + long, long + "b" + long) == 100_000
    assert first_difference(long, "y" + long) == 0


def test_tld_of() -> None:
    assert tld_of("www.example.co.uk") == "uk"
    assert tld_of("127.0.0.1") == "(ip)"
    assert tld_of("::1") == "(ip)"
    assert tld_of("") == "(none)"
    assert tld_of("bad host") == "(invalid)"
    assert tld_of("例え.テスト") == "テスト"


def test_requests_reproduction_matches_a_real_requests_get(local_server: LocalServer) -> None:
    serve_mix(local_server)
    local_server.add("/no-content-type", html("<p>Привет</p>".encode("cp1251"), None))
    local_server.add(
        "/two-headers",
        Reply(
            body="<p>Ünïcödé</p>".encode(),
            headers=[("Content-Type", "text/html"), ("Content-Type", "text/html; charset=utf-8")],
        ),
    )
    checked = 0
    for path in [p.path for p in MIX] + ["/no-content-type", "/two-headers"]:
        real = requests.get(local_server.url(path), timeout=10)
        values = tuple(real.raw.headers.getlist("Content-Type"))
        encoding, text = requests_text(real.content, values)
        assert text == real.text, path
        assert encoding == (real.encoding or real.apparent_encoding), path
        checked += 1
    assert checked == len(MIX) + 2


def test_late_meta_behind_a_header_is_still_found() -> None:
    # The header decides before any <meta> is read; the audit still reports where the
    # document's own declaration sits and that it disagrees.
    body = _doc(
        "<title>新聞</title>" + _LONG_SCRIPT + '<meta charset="big5">', "<p>中文</p>"
    ).encode()
    page = Page(kind="file", origin="x", body=body, content_types=("text/html; charset=utf-8",))
    record = audit_page(page, MIDDLEWARE)
    assert (record.encoding, record.source) == ("UTF-8", "header")
    assert record.late_meta is True and record.conflict is True
    assert record.overridden == [{"source": "late_meta", "label": "big5", "encoding": "Big5"}]
    early = _doc('<meta charset="big5">', "<p>中文</p>").encode()
    record = audit_page(
        Page(kind="file", origin="y", body=early, content_types=("text/html; charset=utf-8",)),
        MIDDLEWARE,
    )
    assert record.late_meta is False and record.conflict is True


# -- helpers shared by the other audit tests -----------------------------------------------


@dataclass
class AuditRun:
    status: int
    out: str
    err: str

    def jsonl(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.out.split("\n") if line.strip()]

    def pages(self) -> list[dict[str, object]]:
        return [row for row in self.jsonl() if row["type"] == "page"]

    def summary(self) -> dict[str, tuple[int, ...]]:
        """Summary rows as (pages, not UTF-8, requests, Scrapy, UTF-8 decode, late meta,
        conflicts, BOM) per group, including "total"; errors under the key "errors"."""
        rows: dict[str, tuple[int, ...]] = {}
        for row in self.jsonl():
            if row["type"] != "summary":
                continue
            rows[str(row["group"])] = tuple(
                int(row[key])  # type: ignore[call-overload]
                for key in SUMMARY_KEYS
            )
        return rows


SUMMARY_KEYS = (
    "pages", "not_utf8", "garbled_requests", "garbled_scrapy", "garbled_utf8",
    "late_meta", "conflict", "bom", "errors",
)


def run_audit(*args: str) -> AuditRun:
    """The audit in this process, as ``python -m scrapy_charset audit ARGS`` runs it."""
    opts = build_parser().parse_args(list(args))
    out, err = io.StringIO(), io.StringIO()
    status = audit_run(opts, stdout=out, stderr=err, stdin=io.StringIO())
    return AuditRun(status, out.getvalue(), err.getvalue())


def assert_mix_summary(
    summary: dict[str, tuple[int, ...]], errors: int = 0, errors_group: str | None = None
) -> None:
    expected = {tld: (*row, 0) for tld, row in EXPECTED_BY_TLD.items()}
    expected["total"] = (*EXPECTED_TOTAL, errors)
    if errors_group is not None:
        if errors_group in expected:
            expected[errors_group] = (*expected[errors_group][:-1], errors)
        else:
            expected[errors_group] = (0, 0, 0, 0, 0, 0, 0, 0, errors)
    assert summary == expected


def test_summary_of_the_mix_in_every_format(tmp_path: Path) -> None:
    for page in MIX:
        (tmp_path / f"{page.name}.html").write_bytes(page.body)
    sidecar = tmp_path / "pages.tsv"
    sidecar.write_text(
        "path\tcontent_type\turl\n"
        + "".join(f"{p.name}.html\t{p.content_type}\t{p.url}\n" for p in MIX),
        encoding="utf-8",
    )
    result = run_audit("--sidecar", str(sidecar), "--format", "jsonl")
    assert result.status == 0, result.err
    assert_mix_summary(result.summary())
    assert len(result.pages()) == len(MIX)

    table = run_audit("--sidecar", str(sidecar))
    assert table.status == 0
    lines = table.out.splitlines()
    assert lines[0].split()[:5] == ["tld", "pages", "errors", "skipped", "not"]
    total = next(line for line in lines if line.startswith("total")).split()
    # total  11  0  0  4 (36%)  1 (9%)  8 (73%)  1 (9%)  5 (45%)  1  1  1
    # (the pure-ASCII page is both ASCII and UTF-8: not counted as "not UTF-8")
    assert total == [
        "total", "11", "0", "0", "4", "(36%)", "1", "(9%)", "8", "(73%)", "1", "(9%)", "5",
        "(45%)", "1", "1", "1",
    ]
    jp = next(line for line in lines if line.startswith("jp ")).split()
    assert jp[:5] == ["jp", "2", "0", "0", "2"]
    # The first garbled pages are shown with the text around the first difference.
    assert "first pages scrapy garbles:" in table.out
    assert "docs.example.com/com/xml-declaration" in table.out

    csv_run = run_audit("--sidecar", str(sidecar), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(csv_run.out)))
    assert len(rows) == len(MIX)
    assert sum(row["requests_same"] == "false" for row in rows) == EXPECTED_TOTAL[2]
    bom_row = next(row for row in rows if row["url"].endswith("/tw/bom"))
    assert bom_row["bom"] == "UTF-8" and bom_row["utf8_same"] == "false"
    assert json.loads(bom_row["utf8_diff"])["offset"] == 0

    summary_csv = run_audit("--sidecar", str(sidecar), "--format", "csv", "--summary-only")
    rows = list(csv.DictReader(io.StringIO(summary_csv.out)))
    assert [row["group"] for row in rows] == ["com", "de", "jp", "ru", "tw", "total"]
    assert rows[-1]["garbled_utf8"] == "5"

    by_source = run_audit("--sidecar", str(sidecar), "--format", "jsonl", "--group-by", "source")
    counts = {group: row[0] for group, row in by_source.summary().items()}
    assert counts == {"meta": 5, "late_meta": 1, "header": 3, "bom": 1, "utf8": 1, "total": 11}
