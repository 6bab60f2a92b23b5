"""Audit WARC files (gzip'd and plain) holding the mix as raw HTTP responses."""

from __future__ import annotations

import gzip
import io
import random
import zlib
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from scrapy_charset.tools.audit_inputs import Page, read_warc
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


# -- corrupt WARCs: one class of damage at a time -------------------------------------------

# How every message about a damaged WARC begins: plain words, never a Python error's text.
CLEAR = ("truncated", "corrupt", "not a WARC or ARC file", "unsupported")


def _split(data: bytes) -> list[bytes]:
    """A plain WARC's records, each with the blank lines that close it (the MIX's bodies never
    hold a blank line followed by a WARC/ line)."""
    starts = [0] + [i + 4 for i in range(len(data)) if data.startswith(b"\r\n\r\nWARC/", i)]
    return [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)], strict=True)]


def _gzip_each(records: list[bytes]) -> bytes:
    """A .warc.gz as WARC writers make it: each record its own gzip member."""
    return b"".join(gzip.compress(record) for record in records)


def _with_length(record: bytes, change: int) -> bytes:
    head, sep, rest = record.partition(b"Content-Length: ")
    digits, newline, tail = rest.partition(b"\r\n")
    return head + sep + str(int(digits) + change).encode() + newline + tail


RESPONSE = 2  # the index of a response record (plain body) in the mix WARC (warcinfo, request, ...)


def _corruptions(whole: bytes) -> dict[str, bytes]:
    """Damaged copies of the mix WARC (plain), by class: bad headers, wrong record lengths,
    random bytes."""
    records = _split(whole)
    assert b"WARC-Type: response" in records[RESPONSE]
    rng = random.Random(16)

    def replace(old: bytes, new: bytes, number: int = RESPONSE) -> bytes:
        changed = list(records)
        assert old in changed[number]
        changed[number] = changed[number].replace(old, new, 1)
        return b"".join(changed)

    middle = len(b"".join(records[:RESPONSE]))
    damaged = {
        "bad version line": replace(b"WARC/1.0\r\n", b"\x00\xffRC/1.0\r\n"),
        "no version line": replace(b"WARC/1.0\r\n", b""),
        "header line without colon": replace(b"WARC-Type: response", b"WARC-Type response"),
        "no target URI": replace(b"WARC-Target-URI: ", b"X-Gone: "),
        "length not a number": replace(b"Content-Length: ", b"Content-Length: x"),
        "length negative": replace(b"Content-Length: ", b"Content-Length: -"),
        "no blank line after the headers": replace(b"\r\n\r\nHTTP/1.1", b"\r\nHTTP/1.1"),
        "random bytes": rng.randbytes(3000),
        "random bytes after a WARC line": b"WARC/1.0\r\n" + rng.randbytes(3000),
        "random bytes over a record's start": (
            whole[:middle] + rng.randbytes(500) + whole[middle + 500:]
        ),
        "random bytes between records": whole[:middle] + rng.randbytes(700) + whole[middle:],
    }
    # (A length that takes in or leaves out only line ends, up to four bytes too long or a
    # body's last newline short, cannot be told from a right one without digests.)
    for change in (-300, -7, -3, 7, 300):
        for number in (RESPONSE, len(records) - 1):
            changed = list(records)
            changed[number] = _with_length(changed[number], change)
            damaged[f"length {change:+} in record {number + 1}"] = b"".join(changed)
    return damaged


def _assert_clear(pages: list[Page], label: str) -> None:
    errors = [str(page.error) for page in pages if page.error is not None]
    assert errors, f"{label}: damage not reported"
    for error in errors:
        assert error.startswith(CLEAR), f"{label}: {error}"
        assert "NoneType" not in error and "has no attribute" not in error, f"{label}: {error}"
        assert error.isprintable() and len(error) <= 200, f"{label}: {error}"
    known = {page.url for page in MIX}
    assert all(page.url in known for page in pages if page.error is None), label


def test_every_class_of_warc_damage_gets_a_clear_error(tmp_path: Path) -> None:
    whole = write_mix_warc(tmp_path / "whole.warc", gzipped=False)
    damaged = _corruptions(whole)
    path = tmp_path / "damaged.warc"
    for label, data in damaged.items():
        path.write_bytes(data)
        _assert_clear(list(read_warc(path)), label)
    # The same damage in a gzip'd WARC (one member per record), and damage to gzip itself.
    gzipped = {f"gzip, {label}": _gzip_each(_split(data))
               for label, data in damaged.items() if not label.startswith("random")}
    members = [gzip.compress(record) for record in _split(whole)]
    start = len(b"".join(members[:RESPONSE]))
    whole_gz = b"".join(members)
    gzipped["gzip magic number, then random bytes"] = b"\x1f\x8b\x08\x00" + (
        random.Random(5).randbytes(2000)
    )
    gzipped["several records in one gzip member"] = gzip.compress(whole)
    # (A cut in the member's last 8 bytes, its checksum and length, loses no content.)
    for cut in range(1, len(members[RESPONSE]) - 8, 23):
        gzipped[f"gzip member cut at {cut}"] = whole_gz[: start + cut]
    for flip in range(10, len(members[RESPONSE]), 29):  # deflate data, checksum or length
        data = bytearray(whole_gz)
        data[start + flip] ^= 0x10
        gzipped[f"bit flipped at {flip} in a gzip member"] = bytes(data)
    path = tmp_path / "damaged.warc.gz"
    for label, data in gzipped.items():
        path.write_bytes(data)
        _assert_clear(list(read_warc(path)), label)


def test_warc_errors_are_told_apart_by_what_failed_not_by_their_words(tmp_path: Path) -> None:
    """A reader error quoting bytes that say "gzip" is no gzip error; gzip damage is, and one
    stream holding several records is named as such."""
    whole = write_mix_warc(tmp_path / "whole.warc", gzipped=False)
    records = _split(whole)
    path = tmp_path / "notes.warc"
    path.write_bytes(b"<p>gzip notes</p>\n" * 20)
    [page] = list(read_warc(path))
    assert str(page.error).startswith("not a WARC or ARC file"), page.error
    assert "gzip" in str(page.error)  # the bytes are quoted ...
    assert "corrupt gzip" not in str(page.error)  # ... and do not decide the class
    changed = list(records)
    changed[RESPONSE] = b"gzip'd record follows\r\n" + changed[RESPONSE].split(b"\r\n", 1)[1]
    path.write_bytes(b"".join(changed))
    errors = [str(p.error) for p in read_warc(path) if p.error is not None]
    assert len(errors) == 1 and errors[0].startswith(
        f"corrupt WARC: record {RESPONSE + 1} (byte"), errors
    path = tmp_path / "stream.warc.gz"
    path.write_bytes(gzip.compress(whole))  # one gzip stream, not one member per record
    errors = [str(p.error) for p in read_warc(path) if p.error is not None]
    assert len(errors) == 1 and errors[0].startswith("unsupported WARC at record 2"), errors
    assert "warcio recompress" in errors[0]
    # Damage to the gzip data itself: the inflater's own errors, whatever their words.
    from scrapy_charset.tools.audit_inputs import warc_failure

    for exc in (zlib.error("Error -3 while decompressing data: invalid distance"),
                EOFError("Compressed file ended before the end-of-stream marker was reached"),
                gzip.BadGzipFile("Not a gzipped file (b'WA')")):
        assert warc_failure(exc, 3, 900).startswith("corrupt gzip data in record 3 (byte 900)")
    assert not warc_failure(ValueError("gzip"), 3, 900).startswith("corrupt gzip")


def test_damaged_warcs_give_a_failing_status_and_no_traceback(tmp_path: Path) -> None:
    whole = write_mix_warc(tmp_path / "whole.warc", gzipped=False)
    damaged = _corruptions(whole)
    folder = tmp_path / "in"
    folder.mkdir()
    labels = ("no target URI", f"length +7 in record {RESPONSE + 1}", "random bytes")
    for number, label in enumerate(labels):
        (folder / f"{number}.warc").write_bytes(damaged[label])
    (folder / "3.warc.gz").write_bytes(gzip.compress(whole)[:-100])
    strict = run_audit(str(folder), "--format", "jsonl", "--fail-on-error")
    assert strict.status == 3
    assert "could not be audited" in strict.err
    failed_files = {str(row["origin"]).rsplit("/", 1)[-1].split("#")[0]
                    for row in strict.pages() if row["error"]}
    assert failed_files == {"0.warc", "1.warc", "2.warc", "3.warc.gz"}
    table = run_audit(str(folder))
    assert table.status == 0  # some pages were audited; errors are listed under the table
    assert "input(s) could not be audited" in table.out
    assert "Traceback" not in table.out + table.err
    alone = run_audit(str(folder / "2.warc"))
    assert alone.status == 3 and "no page could be audited" in alone.err


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
    assert errors["notes.warc"].startswith("not a WARC or ARC file")
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
