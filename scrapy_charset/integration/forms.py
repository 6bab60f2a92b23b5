"""Form submissions with the browser's bytes: a wrapper of the ``form2request`` library.

``form2request`` (the library Scrapy points to instead of ``FormRequest.from_response``) finds a
form's fields, method and action, but always writes them as UTF-8 and does not support
``multipart/form-data``. :func:`form2request` here takes the same arguments plus the page's
``encoding`` and serializes the fields as a browser does (HTML Standard, "form submission";
URL Standard, "application/x-www-form-urlencoded serializing"):

- the encoding is the page's output encoding (``response.encoding`` works as is);
- line breaks in names and values become CRLF;
- ``application/x-www-form-urlencoded`` (and GET queries): *percent-encode after encoding*, a
  character the encoding lacks as ``%26%23N%3B``, space as ``+``, only ASCII alphanumerics and
  ``*-._`` left as they are;
- ``text/plain``: ``name=value`` lines, encoded with ``&#N;`` for missing characters;
- ``multipart/form-data``: one part per field, names and values encoded with ``&#N;`` for
  missing characters, quotes and line breaks in names escaped as %22, %0D, %0A.

Install with ``pip install "scrapy-charset[forms]"``.
"""

from __future__ import annotations

import re
import secrets
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from ..encoding import Encoding
from ..encoding import encode as _encode
from .response import _as_output, browser_url

_NEWLINES = re.compile(r"\r\n|\r|\n")
_FORM_SAFE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._")
_FORM_BYTE = [
    "+" if b == 0x20 else chr(b) if b in _FORM_SAFE else f"%{b:02X}" for b in range(256)
]


def _crlf(text: str) -> str:
    return _NEWLINES.sub("\r\n", text)


def urlencode(pairs: list[tuple[str, str]], encoding: Encoding | str) -> str:
    """The URL Standard's application/x-www-form-urlencoded serializer with ``encoding``."""
    target = _as_output(encoding)
    return "&".join(
        f"{_form_encode(_crlf(name), target)}={_form_encode(_crlf(value), target)}"
        for name, value in pairs
    )


def _form_encode(text: str, encoding: Encoding) -> str:
    out: list[str] = []
    start = 0
    while True:
        try:
            out.extend(_FORM_BYTE[b] for b in _encode(text[start:], encoding, "fatal"))
            return "".join(out)
        except UnicodeEncodeError as exc:
            bad = start + exc.start
            out.extend(_FORM_BYTE[b] for b in _encode(text[start:bad], encoding, "fatal"))
            code_point = ord(text[bad])
            out.append(f"%26%23{0xFFFD if 0xD800 <= code_point <= 0xDFFF else code_point}%3B")
            start = bad + 1


def multipart(
    pairs: list[tuple[str, str]], encoding: Encoding | str, boundary: str | None = None
) -> tuple[bytes, str]:
    """The multipart/form-data body of ``pairs`` and its Content-Type header value."""
    target = _as_output(encoding)
    boundary = boundary or "----scrapy-charset-" + secrets.token_hex(12)
    parts: list[bytes] = []
    for name, value in pairs:
        quoted = _crlf(name).replace("\n", "%0A").replace("\r", "%0D").replace('"', "%22")
        parts.append(
            b"--"
            + boundary.encode("ascii")
            + b'\r\nContent-Disposition: form-data; name="'
            + _encode(quoted, target)
            + b'"\r\n\r\n'
            + _encode(_crlf(value), target)
            + b"\r\n"
        )
    parts.append(b"--" + boundary.encode("ascii") + b"--\r\n")
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def form2request(
    form: Any,
    data: Any = None,
    *,
    encoding: Encoding | str = "utf-8",
    click: Any = None,
    method: str | None = None,
    enctype: str | None = None,
) -> Any:
    """``form2request.form2request`` with the bytes a browser sends for a page in ``encoding``.

    Returns a ``form2request.Request`` (``.to_scrapy(callback=...)`` etc.). ``encoding`` is a
    label, an :class:`~scrapy_charset.encoding.Encoding` or ``response.encoding``.
    """
    import form2request as f2r

    # The library as a browser: the fields (its urlencoded body, read back), the action URL.
    as_post = f2r.form2request(
        form, data, click=click, method="POST", enctype="application/x-www-form-urlencoded"
    )
    pairs = parse_qsl(as_post.body.decode("ascii"), keep_blank_values=True, encoding="utf-8")
    url = browser_url(as_post.url, encoding)
    try:
        real = f2r.form2request(form, data, click=click, method=method, enctype=enctype)
    except NotImplementedError as exc:
        if "multipart/form-data" not in str(exc):
            raise
        body, content_type = multipart(pairs, encoding)
        return f2r.Request(url=url, method="POST", headers=[("Content-Type", content_type)],
                           body=body)
    if real.method == "GET":
        query = urlencode(pairs, encoding)
        return f2r.Request(url=urlunsplit(urlsplit(url)._replace(query=query)), method="GET",
                           headers=list(real.headers), body=b"")
    content_type = dict(real.headers).get("Content-Type", "")
    if content_type == "text/plain":
        text = "".join(f"{_crlf(k)}={_crlf(v)}\r\n" for k, v in pairs)
        body = _encode(text, _as_output(encoding))
    else:
        body = urlencode(pairs, encoding).encode("ascii")
    return f2r.Request(url=url, method="POST", headers=list(real.headers), body=body)


__all__ = ["form2request", "multipart", "urlencode"]
