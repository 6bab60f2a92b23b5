"""Audit local files and folders: sidecar TSV, --content-type, --glob, and what cannot be read."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from scrapy_charset.tools.audit_inputs import (
    LocalInputs,
    decode_content_encoding,
    header_values,
    iter_local_pages,
    parse_raw_headers,
    skip_reason,
)
from tests.tools.test_audit_pages import MIX, assert_mix_summary, run_audit


def _write_mix(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for page in MIX:
        (folder / f"{page.name}.html").write_bytes(page.body)


def _sidecar(path: Path, rows: list[tuple[str, str, str]], header: bool = True) -> Path:
    lines = ["path\tcontent_type\turl"] if header else []
    lines += ["\t".join(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def test_folder_with_sidecar_and_a_missing_file(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _write_mix(site)
    rows = [(f"{p.name}.html", p.content_type or "", p.url) for p in MIX]
    rows.append(("lost.html", "text/html", "http://www.example.ru/lost"))
    sidecar = _sidecar(site / "pages.tsv", rows)
    # The folder and the sidecar name the same files: each is audited once, with the
    # sidecar's header and URL; the sidecar itself is not a page.
    result = run_audit(str(site), "--sidecar", str(sidecar), "--format", "jsonl")
    assert result.status == 0, result.err
    assert_mix_summary(result.summary(), errors=1, errors_group="ru")
    lost = next(row for row in result.pages() if row["error"])
    assert lost["url"] == "http://www.example.ru/lost"
    assert "cannot read file" in str(lost["error"])
    assert len(result.pages()) == len(MIX) + 1


def test_content_type_option_glob_and_hidden_files(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _write_mix(site / "pages")
    (site / "pages" / "notes.txt").write_text("not a page", "utf-8")
    (site / ".hidden.html").write_bytes(b"<p>hidden</p>")
    (site / ".git").mkdir()
    (site / ".git" / "index.html").write_bytes(b"<p>hidden</p>")
    result = run_audit(
        str(site), "--content-type", "text/html; charset=utf-8", "--glob", "*.html",
        "--format", "jsonl", "--group-by", "encoding",
    )
    rows = result.pages()
    assert len(rows) == len(MIX)
    # The header's charset decides for every page without a BOM: all UTF-8.
    assert {row["encoding"] for row in rows} == {"UTF-8"}
    assert {row["content_type"] for row in rows} == {"text/html; charset=utf-8"}
    assert {row["tld"] for row in rows} == {"(none)"}
    assert sum(row["source"] == "header" for row in rows) == len(MIX) - 1
    # Non-UTF-8 bytes decoded as UTF-8 hold U+FFFD; the audit counts them.
    koi8 = next(row for row in rows if str(row["origin"]).endswith("ru-koi8-r.html"))
    assert isinstance(koi8["replacement_chars"], int) and koi8["replacement_chars"] > 5


def test_page_without_content_type_header(tmp_path: Path) -> None:
    page = next(p for p in MIX if p.name == "ru-cp1251")
    (tmp_path / "p.html").write_bytes(page.body)
    sidecar = _sidecar(tmp_path / "s.tsv", [("p.html", "", page.url)], header=False)
    rows = run_audit("--sidecar", str(sidecar), "--format", "jsonl").pages()
    assert len(rows) == 1
    row = rows[0]
    assert row["content_type"] is None
    assert (row["encoding"], row["source"]) == ("windows-1251", "meta")
    # No header: requests guesses with charset detection (its apparent_encoding).
    assert row["requests_encoding"] not in (None, "ISO-8859-1")


def test_unreadable_inputs_are_records(tmp_path: Path) -> None:
    (tmp_path / "dangling.html").symlink_to(tmp_path / "nowhere.html")
    bad_sidecar = tmp_path / "bad.tsv"
    bad_sidecar.write_bytes(b"file\tcontent_type\n\xff\xfe\n")
    os.mkfifo(tmp_path / "pipe.html")
    result = run_audit(
        str(tmp_path / "dangling.html"), str(tmp_path / "pipe.html"), "--sidecar",
        str(bad_sidecar), "--format", "jsonl",
    )
    assert result.status == 3
    errors = sorted(str(row["error"]).split(":")[0] for row in result.pages())
    assert errors == ["bad sidecar", "cannot read file", "cannot read file"]


def test_a_missing_path_is_a_usage_error_reported_first(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(MIX[0].body)
    result = run_audit(str(tmp_path / "page.html"), str(tmp_path / "absent"))
    assert result.status == 2
    assert result.out == ""  # no table before the error
    assert result.err == f"audit: no such file or folder: {tmp_path / 'absent'}\n"
    sidecar = run_audit(str(tmp_path), "--sidecar", str(tmp_path / "absent.tsv"))
    assert (sidecar.status, sidecar.out) == (2, "")
    assert "--sidecar: no such file" in sidecar.err


def test_a_folder_holding_a_cache_entry_and_a_warc(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    page = next(p for p in MIX if p.name == "jp-euc-jp")
    entry = root / "cache" / "spider" / "ab" / "ab12"
    entry.mkdir(parents=True)
    (entry / "meta").write_text(repr({"url": page.url, "status": 200, "response_url": page.url}))
    (entry / "response_headers").write_bytes(b"Content-Type: text/html\r\n")
    (entry / "response_body").write_bytes(page.body)
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(
        page.url, "response", payload=io.BytesIO(page.body), http_headers=http,
        length=len(page.body),
    ))
    (root / "crawl.warc.gz").write_bytes(buffer.getvalue())
    shutil.copy(root / "crawl.warc.gz", root / "notes.txt")  # not named as a WARC: a file
    pages = list(iter_local_pages(LocalInputs(paths=[root])))
    kinds = sorted((p.kind, p.url or "") for p in pages)
    assert kinds == [("file", ""), ("httpcache", page.url), ("warc", page.url)]
    audited = {p.kind: p for p in pages}
    assert audited["httpcache"].body == audited["warc"].body == page.body


def test_content_encodings_are_undone_in_reverse_order() -> None:
    import gzip
    import zlib

    import brotli

    body = "<p>Grüße aus Köln</p>".encode() * 20
    assert decode_content_encoding(gzip.compress(body), ["gzip"]) == body
    assert decode_content_encoding(zlib.compress(body), ["Deflate"]) == body
    raw_deflate = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    assert decode_content_encoding(
        raw_deflate.compress(body) + raw_deflate.flush(), ["deflate"]
    ) == body
    assert decode_content_encoding(brotli.compress(body), ["br"]) == body
    # Codings listed in the order applied: "br, gzip" was brotli first, then gzip.
    both = gzip.compress(brotli.compress(body))
    assert decode_content_encoding(both, ["br, gzip"]) == body
    assert decode_content_encoding(both, ["br", "gzip"]) == body
    assert decode_content_encoding(body, ["identity"]) == body
    with pytest.raises(ValueError, match="unsupported Content-Encoding 'compress'"):
        decode_content_encoding(body, ["compress"])
    with pytest.raises(ValueError, match="corrupt gzip body"):
        decode_content_encoding(body, ["gzip"])


def test_skip_reason_and_raw_headers() -> None:
    assert skip_reason(200, ("text/html; charset=utf-8",)) is None
    assert skip_reason(200, ("application/xhtml+xml",)) is None
    assert skip_reason(None, ()) is None
    assert skip_reason(404, ("text/html",)) == "HTTP status 404"
    assert skip_reason(200, ("text/html", "application/json")) == "not HTML: application/json"
    headers = parse_raw_headers(
        b"Content-Type: text/html\r\nSet-Cookie: a=1\r\ncontent-type: text/html; charset=koi8-r"
        b"\r\nbroken line\r\n"
    )
    assert header_values(headers, "content-type") == (
        "text/html", "text/html; charset=koi8-r"
    )


def test_table_lists_the_first_failed_inputs(tmp_path: Path) -> None:
    missing = [str(tmp_path / f"missing-{n:02}.html") for n in range(25)]
    for path in missing:
        Path(path).symlink_to(tmp_path / "nowhere")
    result = run_audit(*missing)
    assert result.status == 3
    assert "25 input(s) could not be audited:" in result.out
    assert result.out.count("cannot read file") == 20
    assert "... and 5 more" in result.out
    total = next(line for line in result.out.splitlines() if line.startswith("total")).split()
    assert total[1:4] == ["0", "25", "0"]


def test_a_fifo_is_reported_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.html")
    (tmp_path / "page.html").write_bytes(MIX[0].body)
    rows = run_audit(str(tmp_path), "--format", "jsonl").pages()
    assert sorted((Path(str(r["origin"])).name, r["error"]) for r in rows) == [
        ("page.html", None),
        ("pipe.html", "cannot read file: not a regular file (a FIFO)"),
    ]
