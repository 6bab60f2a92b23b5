"""Audit WARC files (gzip'd and plain) holding the mix as raw HTTP responses."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from scrapy_charset.tools.audit_inputs import read_warc
from tests.tools.test_audit_pages import MIX, MixPage, assert_mix_summary, run_audit


def _chunked(body: bytes, size: int = 700) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size])
             for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def _response(writer: WARCWriter, page: MixPage, transfer: str) -> None:
    headers = [("Content-Type", page.content_type)] if page.content_type else []
    payload = page.body
    if transfer == "gzip":
        headers.append(("Content-Encoding", "gzip"))
        payload = gzip.compress(payload)
    elif transfer == "chunked":
        headers.append(("Transfer-Encoding", "chunked"))
        payload = _chunked(payload)
    http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
    record = writer.create_warc_record(
        page.url, "response", payload=io.BytesIO(payload), http_headers=http,
        length=len(payload),
    )
    writer.write_record(record)


def write_mix_warc(path: Path, gzipped: bool) -> bytes:
    """The mix as response records (some gzip-encoded or chunked, as servers send them),
    with a warcinfo record and request records that the audit must pass over."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzipped)
    writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
    for number, page in enumerate(MIX):
        request = StatusAndHeaders(f"GET {page.path} HTTP/1.1", [("Host", page.host)],
                                   is_http_request=True)
        writer.write_record(
            writer.create_warc_record(page.url, "request", payload=io.BytesIO(b""),
                                      http_headers=request)
        )
        _response(writer, page, ("plain", "gzip", "chunked")[number % 3])
    data = buffer.getvalue()
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_audit_of_a_warc_matches_the_mix(tmp_path: Path, gzipped: bool) -> None:
    warc = tmp_path / ("mix.warc.gz" if gzipped else "mix.warc")
    write_mix_warc(warc, gzipped)
    pages = list(read_warc(warc))
    assert [p.url for p in pages] == [p.url for p in MIX]
    assert [p.body for p in pages] == [p.body for p in MIX]
    result = run_audit(str(warc), "--format", "jsonl")
    assert result.status == 0, result.err
    assert_mix_summary(result.summary())
    assert {row["kind"] for row in result.pages()} == {"warc"}


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_truncated_warc_is_reported(tmp_path: Path, gzipped: bool) -> None:
    whole = write_mix_warc(tmp_path / "whole.warc", gzipped)
    # Cut the file inside the last response record's payload.
    last_body = MIX[-1].body
    cut_warc = tmp_path / ("cut.warc.gz" if gzipped else "cut.warc")
    cut_warc.write_bytes(whole[: len(whole) - (len(last_body) // 2 if not gzipped else 60)])
    result = run_audit(str(cut_warc), "--format", "jsonl", "--group-by", "kind")
    assert result.status == 0
    rows = result.pages()
    errors = [row for row in rows if row["error"]]
    assert len(errors) == 1
    assert "truncated" in str(errors[0]["error"])
    assert len(rows) == len(MIX)
    assert result.summary()["total"][0] == len(MIX) - 1
    assert result.summary()["total"][-1] == 1


def _record_ends(path: Path) -> list[int]:
    ends = [0]
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            record.content_stream().read()
            ends.append(records.get_record_offset() + records.get_record_length())
    return ends


def test_every_cut_of_a_warc_is_reported_or_complete(tmp_path: Path) -> None:
    # Wherever a plain WARC ends, the audit reads the complete records and reports the cut one.
    whole = write_mix_warc(tmp_path / "whole.warc", gzipped=False)
    ends = _record_ends(tmp_path / "whole.warc")
    path = tmp_path / "cut.warc"
    for cut in range(0, len(whole), 53):
        path.write_bytes(whole[:cut])
        pages = list(read_warc(path))
        good = [p for p in pages if p.error is None]
        bad = [p for p in pages if p.error is not None]
        assert all(p.body == m.body for p, m in zip(good, MIX, strict=False)), cut
        # Only a cut between records (in the blank lines closing one) loses nothing.
        between = any(end <= cut <= end + 4 for end in ends)
        assert len(bad) == (0 if between else 1), cut


def test_unreadable_and_unsupported_inputs(tmp_path: Path) -> None:
    not_warc = tmp_path / "notes.warc"
    not_warc.write_bytes(b"this is not a WARC file at all\n" * 10)
    missing = tmp_path / "missing.warc.gz"
    missing.symlink_to(tmp_path / "nowhere")  # dangling: there, but cannot be read
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=False)
    http = StatusAndHeaders(
        "200 OK", [("Content-Type", "text/html"), ("Content-Encoding", "compress")],
        protocol="HTTP/1.1",
    )
    writer.write_record(writer.create_warc_record(
        "http://www.example.fr/", "response", payload=io.BytesIO(b"\x1f\x9d..."),
        http_headers=http, length=5,
    ))
    odd = tmp_path / "odd.warc"
    odd.write_bytes(buffer.getvalue())
    result = run_audit(str(not_warc), str(missing), str(odd), "--format", "jsonl")
    assert result.status == 3  # nothing could be audited
    errors = {Path(str(row["origin"]).split("#")[0]).name: str(row["error"])
              for row in result.pages()}
    assert set(errors) == {"notes.warc", "missing.warc.gz", "odd.warc"}
    assert "not a WARC record" in errors["notes.warc"]
    assert "cannot read file" in errors["missing.warc.gz"]
    assert "unsupported Content-Encoding 'compress'" in errors["odd.warc"]
    assert "no page could be audited" in result.err


def test_redirects_and_non_html_are_counted_as_skipped(tmp_path: Path) -> None:
    warc = tmp_path / "mixed.warc.gz"
    write_mix_warc(warc, gzipped=True)
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    extra = [
        ("301 Moved Permanently", [("Location", "/"), ("Content-Type", "text/html")],
         b"<a href=/>moved</a>"),
        ("200 OK", [("Content-Type", "image/png")], b"\x89PNG\r\n\x1a\n\x00\x00"),
        ("200 OK", [("Content-Type", "text/plain")], b"User-agent: *\nDisallow:\n"),
    ]
    for number, (status, headers, body) in enumerate(extra):
        http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(
            f"http://www.example.de/extra{number}", "response", payload=io.BytesIO(body),
            http_headers=http, length=len(body),
        ))
    with warc.open("ab") as fh:
        fh.write(buffer.getvalue())
    result = run_audit(str(warc), "--format", "jsonl")
    assert result.status == 0
    assert_mix_summary(result.summary())
    total = next(r for r in result.jsonl() if r["type"] == "summary" and r["group"] == "total")
    assert total["skipped"] == 3
    skipped = sorted(str(r["skipped"]) for r in result.pages() if r["skipped"])
    assert skipped == ["HTTP status 301", "not HTML: image/png", "not HTML: text/plain"]
    # --all-types hands them to the middleware, which (as in a crawl) takes over only the
    # response types CHARSET_RESPONSE_TYPES names.
    everything = run_audit(str(warc), "--format", "jsonl", "--all-types")
    total = next(r for r in everything.jsonl() if r["type"] == "summary" and r["group"] == "total")
    assert (total["pages"], total["skipped"]) == (len(MIX), 3)
    skipped = sorted(str(r["skipped"]) for r in everything.pages() if r["skipped"])
    assert skipped == [
        "not handled by the middleware: Response (CHARSET_RESPONSE_TYPES)",
        "not handled by the middleware: TextResponse (CHARSET_RESPONSE_TYPES)",
        "not handled by the middleware: redirect",
    ]
    text_too = run_audit(str(warc), "--format", "jsonl", "--all-types",
                         "-s", "CHARSET_RESPONSE_TYPES=html,text")
    total = next(r for r in text_too.jsonl() if r["type"] == "summary" and r["group"] == "total")
    assert (total["pages"], total["skipped"]) == (len(MIX) + 1, 2)
