"""The chaos site: responses that lie, break, truncate or make a decoder fail.

Every body is real bytes from a real codec (or real binary data); nothing here is an escape
standing in for an encoding. ``CASES`` lists what the chaos spider requests: a path (with an
optional query so one route can be fetched several ways) and request meta.
"""

from __future__ import annotations

import gzip
import random
import struct
import zlib
from typing import Any

from tests.support.server import Handler, ReceivedRequest, Reply, html

RUSSIAN = "Привет, мир! Съешь же ещё этих мягких французских булок."
JAPANESE = "JRA日本中央競馬会 価格 1,000～2,000円"
FRENCH = "Café crème, déjà vu — « naïve » façade"
# What a browser shows for these bytes is plain text; decoded with UTF-7 it would be a script.
UTF7_SMUGGLE = b"+ADw-script+AD4-alert(1)+ADw-/script+AD4-"


def page(title: str, text: str, head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head>{head}<title>{title}</title></head>"
        f"<body><p>{text}</p><a href='/next'>next</a></body></html>"
    )


def png_bytes() -> bytes:
    """A valid 1x1 PNG, built with zlib so its chunks and CRCs are real."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def random_body(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


def gzipped(body: bytes, content_type: str | bytes) -> Reply:
    return Reply(
        gzip.compress(body, mtime=0),
        [("Content-Type", content_type), ("Content-Encoding", "gzip")],
    )


def _flaky(request: ReceivedRequest) -> Reply:
    """Every other request is served broken, as a section of a real site can start failing."""
    if "b=1" in request.query:
        return Reply(b"\xff\xfe\x00<broken" * 3, [("Content-Type", "text/html; charset=utf-16")])
    return html(page("flaky ok", FRENCH).encode("utf-8"), "text/html; charset=utf-8")


def routes() -> dict[str, Reply | Handler]:
    cyr = page("Новости", RUSSIAN).encode("windows-1251")
    sjis = page("競馬", JAPANESE).encode("cp932")
    fr_utf8 = page("Café", FRENCH).encode("utf-8")
    big = (page("big", FRENCH * 50).encode("utf-8")) * 4
    ok_meta = page("meta", FRENCH, "<meta charset='windows-1252'>").encode("cp1252")
    return {
        "/ok": html(fr_utf8, "text/html; charset=utf-8"),
        "/ok-meta": html(ok_meta),
        "/undeclared-sjis": html(sjis),
        "/undeclared-cyr": html(cyr),
        # Content-Length longer than the body, then the connection closes.
        "/truncated": Reply(big[:3001], [("Content-Type", "text/html")], content_length=len(big)),
        # Truncated in the middle of a multi-byte character.
        "/truncated-mb": Reply(sjis[:-7], [("Content-Type", "text/html; charset=shift_jis")],
                               content_length=len(sjis)),
        # Content-Length shorter than the body: the client reads only that much.
        "/short-length": Reply(cyr, [("Content-Type", "text/html; charset=windows-1251")],
                               content_length=len(cyr) // 2 + 1),
        # No Content-Length: the body ends when the connection closes.
        "/no-length": Reply(sjis, [("Content-Type", "text/html; charset=shift_jis")],
                            content_length=-1),
        "/gzip-lie": gzipped(cyr, "text/html; charset=utf-8"),
        "/gzip-ok": gzipped(sjis, "text/html; charset=shift_jis"),
        "/gzip-corrupt": Reply(b"\x1f\x8b\x08\x00garbage-not-deflate" + random_body(1, 300),
                               [("Content-Type", "text/html"), ("Content-Encoding", "gzip")]),
        "/gzip-truncated": Reply(gzip.compress(big, mtime=0)[:200],
                                 [("Content-Type", "text/html"), ("Content-Encoding", "gzip")]),
        # 2 MB of one byte inside a small gzip: a body far larger than the wire.
        "/gzip-bomb": gzipped(b"<!--" + b"\xe9" * 2_000_000, "text/html"),
        "/gzip-meta-soup": gzipped(b"<meta " * 40_000, "text/html"),
        "/dup-ct": Reply(fr_utf8, [("Content-Type", "text/html; charset=utf-8"),
                                   ("Content-Type", "text/html; charset=shift_jis")]),
        "/dup-ct-mixed": Reply(sjis, [("Content-Type", "text/plain"),
                                      ("Content-Type", "text/html; charset=\"shift_jis")]),
        "/ct-unterminated": html(cyr, 'text/html; charset="windows-1251'),
        "/ct-garbage": html(cyr, ";;;==;charset;=\"\";\\"),
        "/ct-empty": html(cyr, ""),
        "/ct-charset-empty": html(cyr, "text/html; charset="),
        "/ct-nul": html(fr_utf8, b"text/html; charset=utf-8\x00evil"),
        "/ct-nonascii": html(sjis, b"text/html; charset=\xe9\xff\x80sjis"),
        "/ct-nonascii-label": html(cyr, "text/html; charset=windows\u20131251".encode("utf-8")),
        "/ct-long": html(fr_utf8, "text/html; " + "x=y; " * 2400 + "charset=utf-8"),
        "/ct-huge": html(fr_utf8, "text/html; charset=" + "a" * 1_000_000),
        "/header-nonascii": Reply(fr_utf8, [("Content-Type", "text/html; charset=utf-8"),
                                            ("X-Odd", b"\x80\xff caf\xe9 \xe6\x97\xa5")]),
        "/utf7-header": html(b"<p>" + UTF7_SMUGGLE + b"</p>", "text/html; charset=utf-7"),
        "/utf7-meta": html(b"<meta charset=utf-7><p>" + UTF7_SMUGGLE + b"</p>", "text/html"),
        "/replacement": html(cyr, "text/html; charset=iso-2022-kr"),
        "/utf16-lie": html(fr_utf8, "text/html; charset=utf-16"),
        # UTF-16 labels a browser reads as UTF-16LE on bytes that are not (docs/limits.md):
        # w3lib knows no "unicode" and reads "utf-16" as big-endian, so stock finds the links.
        "/utf16-label-unicode": html(fr_utf8, "text/html; charset=unicode"),
        "/utf16be-no-bom": html(page("Café", FRENCH).encode("utf-16-be"),
                                "text/html; charset=utf-16"),
        "/bom-vs-header": html(b"\xef\xbb\xbf" + fr_utf8, "text/html; charset=windows-1251"),
        "/random": html(random_body(2, 8192)),
        "/random-declared": html(random_body(3, 8192), "text/html; charset=gb18030"),
        "/png": html(png_bytes()),
        "/empty": html(b""),
        "/empty-declared": html(b"", "text/html; charset=shift_jis"),
        "/nul-body": html(b"\x00" * 4096),
        "/meta-soup": html(b"<meta " * 40_000),
        "/comment-soup": html(b"<!--" * 50_000),
        "/attr-soup": html(b"<meta " + b"a=b " * 50_000 + b"charset=koi8-r>"),
        "/no-ct": Reply(cyr, []),
        "/octet": html(cyr, "application/octet-stream"),
        "/plain": html(cyr, "text/plain; charset=windows-1251"),
        "/xml": html(b'<?xml version="1.0" encoding="utf-7"?><r>' + UTF7_SMUGGLE + b"</r>",
                     "text/xml"),
        "/json": html('{"t": "Café"}'.encode(), "application/json"),
        "/not-found": html(cyr, "text/html; charset=windows-1251", status=404),
        "/server-error": html(b"\xff" * 100, "text/html", status=500),
        "/redirect": Reply(b"", [("Location", "/ok")], status=302),
        "/redirect-garbage": Reply(b"\xe9\xff", [("Location", "/undeclared-cyr"),
                                                  ("Content-Type", "text/html; charset=utf-7")],
                                   status=301),
        "/no-content": Reply(b"", [("Content-Type", "text/html")], status=204),
        "/flaky": _flaky,
    }


# (case id, path with query, request meta). Meta values are JSON so the spider can get them
# through the crawl runner; the forced labels are garbage on purpose.
CASES: list[tuple[str, str, dict[str, Any]]] = [
    *[(path.strip("/"), path, {}) for path in routes() if path != "/flaky"],
    ("flaky-a", "/flaky?b=0", {}),
    ("flaky-b", "/flaky?b=1", {}),
    ("truncated-partial", "/truncated?p=1", {"download_fail_on_dataloss": False}),
    ("truncated-mb-partial", "/truncated-mb?p=1", {"download_fail_on_dataloss": False}),
    ("force-garbage", "/undeclared-cyr?f=1", {"charset_encoding": "no-such-encoding"}),
    ("force-utf7", "/utf7-header?f=1", {"charset_encoding": "utf-7"}),
    ("force-nul", "/ok?f=2", {"charset_encoding": "utf-8\x00"}),
    ("force-int", "/ok?f=3", {"charset_encoding": 1252}),
    ("force-list", "/ok?f=4", {"charset_encoding": ["shift_jis"]}),
    ("force-empty", "/undeclared-sjis?f=5", {"charset_encoding": ""}),
    ("force-replacement", "/ok?f=6", {"charset_encoding": "iso-2022-kr"}),
    ("force-huge", "/ok?f=7", {"charset_encoding": "x" * 100_000}),
    ("dont-charset", "/undeclared-sjis?d=1", {"dont_charset": True}),
    ("head", "/ok?h=1", {"method": "HEAD"}),
]
