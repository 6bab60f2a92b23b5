"""Scrapy response classes whose ``text`` is the browser's text, decoded once.

The middleware hands callbacks a :class:`CharsetHtmlResponse` (or the XML / plain-text
variant): still an ``HtmlResponse``, same ``body`` bytes, but ``text``, ``selector``, ``css()``,
``xpath()`` and ``json()`` read the text a browser decodes, and ``encoding`` is the codec a
browser encodes URLs and form data with. A copy made with ``replace(body=...)`` decodes its new
body the browser's way too (lazily), with the same options.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import parsel
from scrapy.http import HtmlResponse, TextResponse, XmlResponse
from scrapy.link import Link
from w3lib.html import strip_html5_whitespace

from ..encoding import UTF_8, Encoding, lookup, output_encoding
from ..encoding import encode as _encode
from ..encoding.pycodecs import codec_name as _whatwg_codec
from ..encoding.pycodecs import encoding_of
from ..sniffing import DEFAULT_DETECTOR, Decision, decode_html, decode_text, sniff_xml
from ..sniffing.sniff import decode_as_decided
from .libxml2 import teach_libxml2

_UNSET: Any = object()


@cache
def output_codec(encoding: Encoding) -> str:
    """The Python codec a browser encodes this document's URLs and form data with.

    The Encoding Standard's "get an output encoding" (replacement, UTF-16BE and UTF-16LE
    encode as UTF-8): ``"utf-8"`` for UTF-8, else the plugin's registered ``scrapy-charset-<name>``
    codec (``"scrapy-charset-euc-jp"``), the spec's encoder in error mode html (``&#N;``).
    """
    output = output_encoding(encoding)
    if output == UTF_8:
        return "utf-8"
    name = _whatwg_codec(output)
    teach_libxml2(name, output)  # so that lxml (Scrapy's xmliter_lxml) accepts the name too
    return name


@cache
def codec_name(name: str) -> str:
    """Python's canonical name of a codec (``"latin-1"`` -> ``"iso8859-1"``)."""
    return codecs.lookup(name).name


@dataclass(frozen=True)
class BrowserDecoding:
    """How to turn a body into the browser's text: one value per kind of response and crawl.

    ``kind`` is ``"html"`` (the HTML Standard's sniffing), ``"xml"`` or ``"text"`` (plain
    text); ``detector`` is handed to sniffing as is (``None``: no detection); ``forced``
    overrides every declaration, like a user choosing an encoding in the browser's menu.
    """

    kind: str = "html"
    detector: Any = _UNSET
    tld_hint: bool = True
    forced: Encoding | None = None

    def with_forced(self, forced: Encoding | None) -> BrowserDecoding:
        if forced == self.forced:
            return self
        return BrowserDecoding(self.kind, self.detector, self.tld_hint, forced)

    def decode(
        self, body: bytes, content_type: list[bytes], url: str | None
    ) -> tuple[str, Decision]:
        if self.kind == "xml":
            decision = sniff_xml(body, content_type or None, forced=self.forced)
            return decode_as_decided(body, decision), decision
        return (decode_html if self.kind == "html" else decode_text)(
            body,
            content_type or None,
            url=url,
            forced=self.forced,
            detector=DEFAULT_DETECTOR if self.detector is _UNSET else self.detector,
            tld_hint=self.tld_hint,
        )


DEFAULT_DECODING = BrowserDecoding()


class DetectorGuard:
    """A detector wrapper that keeps the wrapped detector's failure in ``failure``.

    It answers ``None`` when the detector raises or answers something that is not an
    encoding (as sniffing would also do), so the caller can tell a failure from "no answer".
    """

    def __init__(self, detector: Any) -> None:
        self.detector = detector
        self.failure: Exception | None = None

    def detect(self, data: bytes, *, tld: str | None) -> Encoding | str | bytes | None:
        try:
            answer = self.detector.detect(data, tld=tld)
        except Exception as exc:
            self.failure = exc
            return None
        if answer is not None and not isinstance(answer, (Encoding, str, bytes)):
            self.failure = TypeError(
                f"detector {self.detector!r} answered {answer!r}, not an encoding or label"
            )
            return None
        return answer  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"DetectorGuard({self.detector!r})"


def browser_url(url: str, encoding: Encoding | str) -> str:
    """``url`` with its query and fragment percent-encoded as a browser does (URL Standard).

    The query is encoded with ``encoding``'s output encoding, a character it lacks written as
    ``%26%23N%3B`` (*percent-encode after encoding*); the fragment as UTF-8. Bytes outside
    ASCII and C0 controls are percent-encoded here; the rest of the URL is left for Scrapy
    (w3lib), which encodes the path as UTF-8, as browsers do.
    """
    if url.isascii() and not _CONTROL.search(url):
        return url
    rest, hash_, fragment = url.partition("#")
    base, question, query = rest.partition("?")
    if query:
        query = percent_encode_after_encoding(query, _as_output(encoding))
    if fragment:
        fragment = _percent_encode(fragment.encode("utf-8", "surrogatepass"))
    return base + question + query + hash_ + fragment


_CONTROL = re.compile("[\x00-\x1f]")
# Bytes written as %XX: C0 controls and everything outside ASCII. The other characters the
# URL Standard escapes (space, quotes, <, >...) are ASCII, which Scrapy escapes the same way.
_PERCENT = [f"%{b:02X}" if b < 0x20 or b >= 0x7F else chr(b) for b in range(256)]


def _percent_encode(data: bytes) -> str:
    return "".join([_PERCENT[b] for b in data])


def _as_output(encoding: Encoding | str) -> Encoding:
    if isinstance(encoding, str):
        whatwg = encoding_of(encoding)
        if whatwg is not None:
            encoding = whatwg
        else:
            found = lookup(encoding)
            encoding = found if found is not None else UTF_8
    return output_encoding(encoding)


def percent_encode_after_encoding(text: str, encoding: Encoding) -> str:
    """The URL Standard's *percent-encode after encoding* for a query, as far as it differs
    from Scrapy's: a character ``encoding`` lacks becomes ``%26%23N%3B``."""
    parts: list[str] = []
    start = 0
    while True:
        try:
            parts.append(_percent_encode(_encode(text[start:], encoding, "fatal")))
            return "".join(parts)
        except UnicodeEncodeError as exc:
            bad = start + exc.start
            parts.append(_percent_encode(_encode(text[start:bad], encoding, "fatal")))
            code_point = ord(text[bad])
            if 0xD800 <= code_point <= 0xDFFF:
                code_point = 0xFFFD
            parts.append(f"%26%23{code_point}%3B")
            start = bad + 1


def _url_from_selector(selector: parsel.Selector) -> str:
    """The URL a selector stands for, as Scrapy's ``follow`` reads it: a string selected
    (``@href``), or an ``<a>``/``<link>`` element's ``href``. Anything else raises
    ``ValueError`` as Scrapy does."""
    root = selector.root
    if isinstance(root, str):
        return strip_html5_whitespace(root)
    if not hasattr(root, "tag"):
        raise ValueError(f"Unsupported selector: {selector}")
    if root.tag not in ("a", "link"):
        raise ValueError(f"Only <a> and <link> elements are supported; got <{root.tag}>")
    href = root.get("href")
    if href is None:
        raise ValueError(f"<{root.tag}> element has no href attribute: {selector}")
    return strip_html5_whitespace(href)


class CharsetResponseMixin:
    """The browser-text behaviour shared by the three response classes below.

    Its state lives in the instance ``__dict__``: a mixin with slots of its own could not be
    combined with Scrapy's slotted response classes.
    """

    _charset_options: BrowserDecoding
    _charset_text: str | None
    _charset_decision: Decision | None
    _charset_json: Any
    _encoding: str | None
    _url: str
    body: bytes
    url: str
    headers: Any

    def _charset_init(self, charset_options: BrowserDecoding | None) -> None:
        self._charset_options = charset_options or DEFAULT_DECODING
        self._charset_text = None
        self._charset_decision = None
        self._charset_json = _UNSET

    def _set_url(self, url: str) -> None:
        # Scrapy < 2.12 reads self.encoding here (to no effect on a str URL), which would
        # decode the body before it is set: store the URL as it is instead.
        if isinstance(url, str):
            self._url = url
        else:
            super()._set_url(url)  # type: ignore[misc]

    def charset_preset(self, text: str, decision: Decision) -> None:
        """Store the text and decision the middleware already computed for this body."""
        self._charset_text = text
        self._charset_decision = decision

    @property
    def charset_options(self) -> BrowserDecoding:
        return self._charset_options

    @property
    def charset_decision(self) -> Decision | None:
        """The sniffing decision for this body (``None`` if an explicit non-standard codec
        was given with ``encoding=``)."""
        if self._charset_text is None:
            self._charset_decode()
        return self._charset_decision

    def _charset_decode(self) -> None:
        options = self._charset_options
        if self._encoding is not None:
            # An explicit encoding= (Scrapy's way of forcing one) wins over sniffing; a codec
            # the Encoding Standard does not know is decoded as stock Scrapy would.
            forced = lookup(self._encoding)
            if forced is None:
                self._charset_text = TextResponse.text.fget(self)  # type: ignore[attr-defined]
                return
            options = options.with_forced(forced)
        text, decision = options.decode(self.body, self.headers.getlist(b"Content-Type"), self.url)
        self._charset_text, self._charset_decision = text, decision

    @property
    def text(self) -> str:
        """The body as a browser decodes it (computed once)."""
        if self._charset_text is None:
            self._charset_decode()
        return self._charset_text  # type: ignore[return-value]

    @property
    def encoding(self) -> str:
        """The Python codec a browser would encode this document's URLs and forms with.

        For XML responses, Python's nearest codec instead: XML tools such as Scrapy's
        ``xmliter_lxml`` hand the name to libxml2, which knows only its own names.
        """
        if self._encoding is not None:
            return self._encoding
        decision = self.charset_decision
        assert decision is not None  # only None when _encoding is set
        if self._charset_options.kind == "xml":
            return output_encoding(decision.encoding).python_codec
        return output_codec(decision.encoding)

    def json(self) -> Any:
        """The browser text parsed as JSON (cached)."""
        if self._charset_json is _UNSET:
            self._charset_json = json.loads(self.text)
        return self._charset_json

    def follow(self, url: Any, *args: Any, **kwargs: Any) -> Any:
        """Scrapy's ``follow``, with the URL a browser would request.

        The query is encoded with the page's encoding (its Encoding Standard encoder; a
        character it lacks as ``%26%23N%3B``), the fragment as UTF-8 (URL Standard). The
        ``encoding`` argument, if given, replaces the page's encoding, as in Scrapy.
        """
        if isinstance(url, Link):
            url = url.url
        elif isinstance(url, parsel.Selector):
            url = _url_from_selector(url)
        if isinstance(url, str) and not (url.isascii() and not _CONTROL.search(url)):
            encoding = kwargs.get("encoding") or self.encoding
            url = browser_url(self.urljoin(url), encoding)  # type: ignore[attr-defined]
        return super().follow(url, *args, **kwargs)  # type: ignore[misc]

    def replace(self, *args: Any, **kwargs: Any) -> Any:
        # A str body is encoded with the current encoding, as Scrapy does, which then stays
        # explicit for the copy; a bytes body is sniffed afresh with the same options.
        if isinstance(kwargs.get("body"), str) and "encoding" not in kwargs:
            kwargs["encoding"] = self.encoding
        return super().replace(*args, **kwargs)  # type: ignore[misc]


def _charset_attributes(base: type[TextResponse]) -> tuple[str, ...]:
    # "encoding" is left out so replace() does not pin the old body's encoding on a new body.
    return tuple(name for name in base.attributes if name != "encoding") + ("charset_options",)


class CharsetHtmlResponse(CharsetResponseMixin, HtmlResponse):
    """An :class:`~scrapy.http.HtmlResponse` whose text is the browser's."""

    attributes: tuple[str, ...] = _charset_attributes(HtmlResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        self._charset_init(charset_options)
        super().__init__(*args, **kwargs)


class CharsetXmlResponse(CharsetResponseMixin, XmlResponse):
    """An :class:`~scrapy.http.XmlResponse` whose text is the browser's."""

    attributes: tuple[str, ...] = _charset_attributes(XmlResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        self._charset_init(charset_options)
        super().__init__(*args, **kwargs)


class CharsetTextResponse(CharsetResponseMixin, TextResponse):
    """A plain :class:`~scrapy.http.TextResponse` whose text is the browser's."""

    attributes: tuple[str, ...] = _charset_attributes(TextResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        self._charset_init(charset_options)
        super().__init__(*args, **kwargs)
