"""Hostile inputs for the audit: each is one per-input error in the report, never a traceback,
a hang or a memory blow-up, and the exit status stays the documented one."""

from __future__ import annotations

import gzip
import io
import os
import threading
import tracemalloc
import zlib
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from scrapy_charset.tools.audit import main
from tests.tools.test_audit_pages import MIX, AuditRun, run_audit

PAGE = MIX[0]


def run_within(seconds: float, *args: str) -> AuditRun:
    """The audit in a thread: a run that blocks fails the test instead of hanging it."""
    result: list[AuditRun] = []
    thread = threading.Thread(target=lambda: result.append(run_audit(*args)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"the audit blocked on {args}"
    return result[0]


def errors_by_name(result: AuditRun) -> dict[str, str]:
    return {
        Path(str(row["origin"]).split("#")[0]).name: str(row["error"])
        for row in result.pages()
        if row["error"]
    }


def _cache_entry(root: Path, key: str, headers: bytes, body: bytes | None) -> Path:
    entry = root / "spider" / key[:2] / key
    entry.mkdir(parents=True)
    meta = {"url": PAGE.url, "status": 200, "response_url": PAGE.url}
    (entry / "meta").write_text(repr(meta), "utf-8")
    (entry / "response_headers").write_bytes(headers)
    if body is not None:
        (entry / "response_body").write_bytes(body)
    return entry


def _warc(path: Path, body: bytes, headers: list[tuple[str, str]], gzipped: bool = True) -> None:
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzipped)
    http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(
        PAGE.url, "response", payload=io.BytesIO(body), http_headers=http, length=len(body)
    ))
    path.write_bytes(buffer.getvalue())


# -- symlink loops ------------------------------------------------------------------------


def test_symlink_loops_in_a_folder_and_as_arguments(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "page.html").write_bytes(PAGE.body)
    (site / "a.html").symlink_to(site / "b.html")
    (site / "b.html").symlink_to(site / "a.html")
    (site / "self.warc.gz").symlink_to(site / "self.warc.gz")
    (site / "up").symlink_to(site)  # a folder loop: symlinked folders are not followed
    result = run_within(60, str(site), str(site / "a.html"), "--format", "jsonl")
    assert result.status == 0, result.err  # per-input errors only fail with --fail-on-error
    errors = errors_by_name(result)
    assert set(errors) == {"a.html", "b.html", "self.warc.gz"}
    assert all("Too many levels of symbolic links" in e for e in errors.values()), errors
    assert sum(1 for row in result.pages() if not row["error"]) == 1
    # Only the loop given: nothing audited (3); with --fail-on-error too.
    alone = run_within(30, str(site / "a.html"))
    assert alone.status == 3
    assert "Traceback" not in alone.err + alone.out
    assert run_within(30, str(site), "--fail-on-error").status == 3


# -- FIFOs and devices --------------------------------------------------------------------


def test_fifos_and_devices_are_refused_without_reading(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "page.html").write_bytes(PAGE.body)
    os.mkfifo(site / "pipe.warc")
    os.mkfifo(site / "pipe.warc.gz")
    (site / "zero.warc.gz").symlink_to("/dev/zero")  # endless bytes if read
    (site / "zero.html").symlink_to("/dev/zero")
    cache = site / "cache"
    fifo_entry = _cache_entry(cache, "ab01", b"Content-Type: text/html\r\n", None)
    os.mkfifo(fifo_entry / "response_body")
    zero_entry = _cache_entry(cache, "cd02", b"Content-Type: text/html\r\n", None)
    (zero_entry / "response_body").symlink_to("/dev/zero")
    meta_entry = _cache_entry(cache, "ef03", b"Content-Type: text/html\r\n", PAGE.body)
    (meta_entry / "meta").unlink()
    os.mkfifo(meta_entry / "meta")
    result = run_within(60, str(site), "--format", "jsonl")
    assert result.status == 0, result.err
    errors = {row["origin"]: str(row["error"]) for row in result.pages() if row["error"]}
    names = {Path(origin.split("#")[0]).name: error for origin, error in errors.items()}
    assert "not a regular file (a FIFO)" in names["pipe.warc"]
    assert "not a regular file (a FIFO)" in names["pipe.warc.gz"]
    assert "not a regular file (a character device)" in names["zero.warc.gz"]
    assert "not a regular file (a character device)" in names["zero.html"]
    assert "not a regular file (a FIFO)" in names["ab01"]
    assert "not a regular file (a character device)" in names["cd02"]
    assert "not a regular file (a FIFO)" in names["ef03"]
    assert sum(1 for row in result.pages() if not row["error"]) == 1
    # Given directly as arguments, the same.
    direct = run_within(30, str(site / "pipe.warc"), str(fifo_entry / "response_body"))
    assert direct.status == 3
    assert direct.out.count("not a regular file") == 2


# -- inflation without a size limit -------------------------------------------------------

BOMB_SIZE = 64 * 1024 * 1024  # inflated size of the test's bombs
LIMIT = 1024 * 1024


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    zeros = b"<p>" + b"a" * (BOMB_SIZE - 3)
    inflater = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    gz = inflater.compress(zeros) + inflater.flush()
    deflater = zlib.compressobj(9)
    deflate = deflater.compress(zeros) + deflater.flush()
    return {"gzip": gz, "deflate": deflate}


def _peak_during(*args: str) -> tuple[AuditRun, int]:
    tracemalloc.start()
    try:
        result = run_audit(*args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_inflation_stops_at_the_size_limit(tmp_path: Path, bombs: dict[str, bytes]) -> None:
    root = tmp_path / "inputs"
    root.mkdir()
    (root / "page.html").write_bytes(PAGE.body)
    cache = root / "cache"
    _cache_entry(cache, "aa01", b"Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
                 bombs["gzip"])
    _cache_entry(cache, "bb02", b"Content-Type: text/html\r\nContent-Encoding: deflate\r\n",
                 bombs["deflate"])
    # HTTPCACHE_GZIP: every file gzip'd, the body a bomb itself.
    entry = _cache_entry(cache, "cc03", gzip.compress(b"Content-Type: text/html\r\n"),
                         bombs["gzip"])
    (entry / "meta").write_bytes(gzip.compress((entry / "meta").read_bytes()))
    _warc(root / "encoded.warc.gz", bombs["gzip"],
          [("Content-Type", "text/html"), ("Content-Encoding", "gzip")])
    _warc(root / "big.warc.gz", b"<p>" + b"b" * (4 * LIMIT), [("Content-Type", "text/html")])
    (root / "big.html").write_bytes(b"<p>" + b"c" * (2 * LIMIT))
    result, peak = _peak_during(str(root), "--format", "jsonl", "--max-size", str(LIMIT))
    assert result.status == 0, result.err
    errors = {Path(str(r["origin"]).split("#")[0]).name: (str(r["error"]), r["url"])
              for r in result.pages() if r["error"]}
    assert set(errors) == {"aa01", "bb02", "cc03", "encoded.warc.gz", "big.warc.gz", "big.html"}
    for name, (error, url) in errors.items():
        assert f"over the size limit of {LIMIT} bytes" in error, name
        if name != "big.html":
            assert url == PAGE.url, name  # the record is named
    assert peak < 16 * LIMIT, peak  # never the inflated 64 MiB
    # The limit comes from DOWNLOAD_MAXSIZE as Scrapy's crawl honours it.
    assert main([str(root / "cache"), "--format", "jsonl", "-s",
                 f"DOWNLOAD_MAXSIZE={LIMIT}", "--output", str(tmp_path / "out.jsonl")]) == 3
    out = (tmp_path / "out.jsonl").read_text("utf-8")
    assert out.count("over the size limit") == 3
    # Under a big enough limit the same pages are audited.
    fine = run_audit(str(root / "encoded.warc.gz"), "--format", "jsonl")
    assert [r["bytes"] for r in fine.pages()] == [BOMB_SIZE]


# -- sidecar fields -----------------------------------------------------------------------


def test_a_huge_sidecar_field_is_a_bad_sidecar(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(PAGE.body)
    sidecar = tmp_path / "pages.tsv"
    sidecar.write_text(
        f"path\tcontent_type\turl\npage.html\ttext/html\t{PAGE.url}\n"
        f"other.html\ttext/html\thttp://x.example/{'a' * 200_000}\n",
        "utf-8",
    )
    result = run_within(30, str(tmp_path / "page.html"), "--sidecar", str(sidecar),
                        "--format", "jsonl")
    assert result.status == 0, result.err
    errors = [str(row["error"]) for row in result.pages() if row["error"]]
    assert len(errors) == 1
    assert errors[0].startswith("bad sidecar: ValueError: line 3: field larger than field limit")
    assert sum(1 for row in result.pages() if not row["error"]) == 1


# -- corrupt WARC messages ------------------------------------------------------------------


def test_a_corrupt_warc_message_is_cut_and_escaped(tmp_path: Path) -> None:
    junk = bytes(range(256)) * 40
    (tmp_path / "junk.warc").write_bytes(b"WARC/1.0\r\n" + junk)
    (tmp_path / "junk2.warc.gz").write_bytes(b"\x1f\x8b\x08\x00" + junk)
    (tmp_path / "header.warc").write_bytes(b"WARC/1.0\r\nContent-Length: 5\r\n" + junk[:300])
    result = run_within(30, str(tmp_path), "--format", "jsonl")
    assert result.status == 3
    errors = errors_by_name(result)
    assert set(errors) == {"junk.warc", "junk2.warc.gz", "header.warc"}
    for error in errors.values():
        assert len(error) <= 200, error
        assert error.isprintable(), error
    table = run_within(30, str(tmp_path))
    assert "Traceback" not in table.out + table.err
    assert all(line.isprintable() for line in table.out.splitlines())


def _warc_record(body: bytes, url: str = "http://c.example/") -> bytes:
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=False)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(
        url, "response", payload=io.BytesIO(body), http_headers=http, length=len(body)
    ))
    return buffer.getvalue()


def test_what_warcio_quotes_from_a_corrupt_warc_is_cut_and_escaped(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """warcio writes to stderr itself: the rest of the line after a record with a wrong
    Content-Length, and a WARC-Target-URI with spaces; a binary one also names the record in
    the table."""
    record = _warc_record(PAGE.body)
    (tmp_path / "remainder.warc").write_bytes(
        record[:-4] + b"\x00\xff junk" * 5000 + b"\r\n\r\n" + record
    )
    (tmp_path / "uri.warc").write_bytes(b"\x00\xfe\xff binary junk " * 500)
    result = run_within(30, str(tmp_path))
    assert result.status == 0, result.err
    assert "Traceback" not in result.out + result.err
    assert all(line.isprintable() for line in result.out.splitlines())
    assert max(len(line) for line in result.out.splitlines()) < 400
    written = capfd.readouterr().err.splitlines()  # warcio's own writes to stderr
    written += [r.getMessage() for r in caplog.records if r.name.startswith("warcio")]
    assert any("not followed by a blank line" in line for line in written)
    assert any("Replacing spaces" in line for line in written)
    for line in written:
        assert len(line) <= 250 and line.isprintable(), line[:300]
    rows = run_within(30, str(tmp_path), "--format", "jsonl").pages()
    assert sum(1 for row in rows if not row["error"]) == 2  # both records of remainder.warc
