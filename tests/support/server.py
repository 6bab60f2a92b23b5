"""A real HTTP server on 127.0.0.1 for tests: exact bytes, exact headers, and a log of requests."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass
class Reply:
    """What the server sends: status, headers (repeatable, in order) and the body bytes.

    ``content_length`` overrides the Content-Length header (``None``: the real length;
    ``-1``: no Content-Length header at all, the connection is closed after the body).
    """

    body: bytes = b""
    headers: list[tuple[str, str | bytes]] = field(default_factory=list)
    status: int = 200
    content_length: int | None = None


@dataclass(frozen=True)
class ReceivedRequest:
    method: str
    path: str  # raw path, without the query
    query: str  # raw query string, still percent-encoded
    headers: dict[str, str]
    body: bytes


Handler = Callable[[ReceivedRequest], Reply]


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def html(body: bytes, content_type: str | bytes | None = "text/html", **kwargs: object) -> Reply:
    """A reply with one Content-Type header (or none when ``content_type`` is None)."""
    headers: list[tuple[str, str | bytes]] = []
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    return Reply(body=body, headers=headers, **kwargs)  # type: ignore[arg-type]


class LocalServer:
    """Serve fixed replies or handler functions by path; usable as a context manager.

    >>> with LocalServer({"/a": html(b"<p>hi")}) as server:
    ...     server.url("/a")
    """

    def __init__(self, routes: dict[str, Reply | Handler] | None = None) -> None:
        self.routes: dict[str, Reply | Handler] = dict(routes or {})
        self.requests: list[ReceivedRequest] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- routes -----------------------------------------------------------------------
    def add(self, path: str, reply: Reply | Handler) -> str:
        self.routes[path] = reply
        return self.url(path)

    def add_many(self, routes: Iterable[tuple[str, Reply | Handler]]) -> None:
        for path, reply in routes:
            self.routes[path] = reply

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        assert self._httpd is not None, "server not started"
        return f"http://{host}:{self._httpd.server_address[1]}{path}"

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    def received(self, path: str) -> list[ReceivedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> LocalServer:
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = ReceivedRequest(
                    self.command, parts.path, parts.query, dict(self.headers.items()), body
                )
                with server._lock:
                    server.requests.append(request)
                route = server.routes.get(parts.path)
                if route is None:
                    reply = Reply(b"not found", [("Content-Type", "text/plain")], 404)
                elif isinstance(route, Reply):
                    reply = route
                else:
                    reply = route(request)
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                # Written by hand (not send_header) so duplicate, odd or non-ASCII header
                # values go out exactly as given.
                lines = [f"HTTP/1.1 {reply.status} {_reason(reply.status)}".encode("latin-1")]
                for name, value in reply.headers:
                    raw = value if isinstance(value, bytes) else value.encode("latin-1")
                    lines.append(name.encode("latin-1") + b": " + raw)
                if reply.content_length is None:
                    lines.append(b"Content-Length: %d" % len(reply.body))
                elif reply.content_length >= 0:
                    lines.append(b"Content-Length: %d" % reply.content_length)
                if reply.content_length is not None:
                    lines.append(b"Connection: close")
                    self.close_connection = True
                self.wfile.write(b"\r\n".join(lines) + b"\r\n\r\n")
                if self.command != "HEAD":
                    self.wfile.write(reply.body)
                self.wfile.flush()

            do_GET = do_POST = do_HEAD = _serve  # noqa: N815

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
