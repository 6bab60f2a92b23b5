"""Record the URLs and form bodies Chromium sends from pages in every encoding.

Writes ``tests/data/chromium/urls.jsonl.gz``: first line metadata (browser version, flags),
then one JSON object per page: ``encoding`` (the WHATWG name the page is served as),
``headers``, ``body_b64`` (the page), ``samples`` (``[id, text, kind]``), and ``chromium``:

- ``hrefs``: ``{link id: a.href}`` for every ``<a>`` (each link is ``/p/S?q=S#S`` for one
  sample ``S``, written once as character references, ``n<i>``, and once as raw bytes in the
  page's encoding, ``r<i>``, where the encoder has it);
- ``get``: the request target the GET form was submitted to (as the server received it);
- ``post``: the application/x-www-form-urlencoded body of the POST form;
- ``multipart``: the multipart/form-data body, its boundary replaced by ``BOUNDARY``;
- ``nav``: the request target of a click on link ``n0`` and ``r0`` (checks a.href is what is
  requested).

The samples of each encoding (``url_samples.samples``) are the characters where the Encoding
Standard's encoder differs from a Python codec the page could be given (the plugin's former
``python_codec`` and the codec stock Scrapy picks), found by sweeping every code point; the
characters the encoding lacks; and ASCII punctuation.

Usage: ``python scripts/chromium/record_urls.py [ENCODING ...]``
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import socketserver
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser import chromium, describe  # noqa: E402
from url_samples import ENCODINGS, page_document, samples  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "chromium" / "urls.jsonl.gz"


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.pages: dict[str, tuple[list[tuple[str, str]], bytes]] = {}
        self.received: list[tuple[str, str, dict[str, str], bytes]] = []
        self.lock = threading.Lock()


class Handler(socketserver.StreamRequestHandler):
    server: Server

    def handle(self) -> None:
        line = self.rfile.readline().decode("latin-1").rstrip("\r\n")
        if not line:
            return
        method, target, _ = line.split(" ", 2)
        headers: dict[str, str] = {}
        while True:
            header = self.rfile.readline().decode("latin-1").rstrip("\r\n")
            if not header:
                break
            name, _, value = header.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = self.rfile.read(int(headers.get("content-length", "0") or 0))
        with self.server.lock:
            self.server.received.append((method, target, headers, body))
        page = self.server.pages.get(target)
        if page is None:
            reply_headers, reply = [("Content-Type", "text/html")], b"<p>ok"
        else:
            reply_headers, reply = page
        head = "HTTP/1.1 200 OK\r\n" + "".join(f"{k}: {v}\r\n" for k, v in reply_headers)
        head += f"Content-Length: {len(reply)}\r\nConnection: close\r\n\r\n"
        self.wfile.write(head.encode("latin-1") + reply)


def _last(server: Server, method: str, prefix: str) -> tuple[str, dict[str, str], bytes]:
    with server.lock:
        for got_method, target, headers, body in reversed(server.received):
            if got_method == method and target.startswith(prefix):
                return target, headers, body
    raise LookupError(f"no {method} {prefix} received")


def _submit(page: Any, server: Server, form: str, method: str, prefix: str) -> Any:
    with page.expect_navigation():
        page.evaluate(f"() => document.getElementById({form!r}).submit()")
    return _last(server, method, prefix)


def record_page(browser: Any, server: Server, base: str, encoding: str) -> dict[str, Any]:
    items = samples(encoding)
    headers, body = page_document(encoding, items)
    path = f"/page/{encoding}"
    server.pages[path] = (headers, body)
    page = browser.new_page()
    try:
        page.goto(base + path)
        charset = page.evaluate("() => document.characterSet")
        hrefs = page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('a')].map(a => [a.id, a.href]))"
        )
        get_target, _, _ = _submit(page, server, "get", "GET", "/get")
        page.goto(base + path)
        _, _, post_body = _submit(page, server, "post", "POST", "/post")
        page.goto(base + path)
        _, multi_headers, multi_body = _submit(page, server, "multi", "POST", "/multi")
        boundary = re.search(r"boundary=(\S+)", multi_headers["content-type"])
        assert boundary is not None
        multipart = multi_body.replace(boundary.group(1).encode(), b"BOUNDARY")
        nav = {}
        for link in ("n0", "r0"):
            if link in hrefs:
                page.goto(base + path)
                with page.expect_navigation():
                    page.click(f"#{link}")
                nav[link] = _last(server, "GET", "/p/")[0]
    finally:
        page.close()
    return {
        "encoding": encoding,
        "headers": headers,
        "body_b64": base64.b64encode(body).decode("ascii"),
        "samples": [[sample.id, sample.text, sample.kind] for sample in items],
        "chromium": {
            "charset": charset,
            "hrefs": hrefs,
            "get": get_target,
            "post": post_body.decode("latin-1"),
            "multipart_b64": base64.b64encode(multipart).decode("ascii"),
            "nav": nav,
        },
    }


def main(argv: list[str]) -> int:
    names = argv or ENCODINGS
    server = Server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rows = []
    with chromium() as browser:
        meta_page = browser.new_page()
        meta = describe(browser, meta_page)
        meta_page.close()
        for name in names:
            rows.append(record_page(browser, server, base, name))
            print(name, len(rows[-1]["chromium"]["hrefs"]), "links", flush=True)
    server.shutdown()
    if argv and OUT.exists():  # re-record some encodings into the existing fixture
        with gzip.open(OUT, "rt", encoding="utf-8") as f:
            old = [json.loads(line) for line in f][1:]
        rows = [r for r in old if r["encoding"] not in names] + rows
        rows.sort(key=lambda r: ENCODINGS.index(r["encoding"]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(json.dumps({"meta": meta}) + "\n")
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
