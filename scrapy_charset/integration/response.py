"""Scrapy response classes whose ``text`` is the browser's text, decoded once.

The middleware hands callbacks a :class:`CharsetHtmlResponse` (or the XML / plain-text
variant): still an ``HtmlResponse``, same ``body`` bytes, but ``text``, ``selector``, ``css()``,
``xpath()`` and ``json()`` read the text a browser decodes, and ``encoding`` is the codec a
browser encodes URLs and form data with. A copy made with ``replace(body=...)`` decodes its new
body the browser's way too (lazily), with the same options.
"""

from __future__ import annotations

import codecs
import enum
import json
import pickle
import types
from functools import cache
from typing import Any

import parsel
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.link import Link
from scrapy.utils.response import get_base_url
from w3lib.html import strip_html5_whitespace

from .._namedtuple import NamedTuple
from .._regex import lazy_compile
from ..encoding import (
    ALL_ENCODINGS,
    REPLACEMENT,
    UTF_8,
    UTF_16BE,
    UTF_16LE,
    X_USER_DEFINED,
    Encoding,
    bom_sniff,
    lookup,
    output_encoding,
)
from ..encoding import encode as _encode
from ..encoding.pycodecs import codec_name as _whatwg_codec
from ..encoding.pycodecs import encoding_of
from ..sniffing import (
    DEFAULT_DETECTOR,
    Decision,
    Declaration,
    Source,
    is_xml_mime_type,
    sniff_xml,
)
from ..sniffing.sniff import decode_as_decided, sniff_document
from .libxml2 import teach_libxml2


class _Unset(enum.Enum):
    """A placeholder that keeps its identity through pickling (an enum member pickles by name)."""

    UNSET = "unset"


_UNSET: Any = _Unset.UNSET


_UTF_16 = frozenset({UTF_16BE, UTF_16LE})


@cache
def output_codec(encoding: Encoding) -> str:
    """The Python codec a browser encodes this document's URLs and form data with.

    The Encoding Standard's "get an output encoding" (replacement, UTF-16BE and UTF-16LE
    encode as UTF-8): ``"utf-8"`` for UTF-8 and replacement, else the plugin's registered
    ``scrapy-charset-<name>`` codec (``"scrapy-charset-euc-jp"``), the spec's encoder in error
    mode html (``&#N;``). UTF-16's codec encodes as UTF-8 and decodes UTF-16: code that
    decodes the body with ``response.encoding`` (XMLFeedSpider's ``iternodes``) reads it.
    """
    if encoding in _UTF_16:
        return plugin_codec(encoding)
    output = output_encoding(encoding)
    return "utf-8" if output == UTF_8 else plugin_codec(output)


def portable_codec(codec: str) -> str | None:
    """Python's own codec for a ``scrapy-charset-`` codec name: its output encoding's
    (``"cp1252"`` for ``"scrapy-charset-windows-1252"``, ``"utf-8"`` for UTF-16); None for any
    other name. A request that stores it loads where the plugin is not imported."""
    encoding = encoding_of(codec)
    return None if encoding is None else output_encoding(encoding).python_codec


@cache
def plugin_codec(encoding: Encoding) -> str:
    """The plugin's registered codec for ``encoding`` (``"scrapy-charset-euc-jp"``): the
    standard's decoder and encoder, a name libxml2 also accepts."""
    name = _whatwg_codec(encoding)
    teach_libxml2(name, encoding)  # so that lxml (Scrapy's xmliter_lxml) accepts the name too
    return name


@cache
def codec_name(name: str) -> str:
    """Python's canonical name of a codec (``"latin-1"`` -> ``"iso8859-1"``)."""
    return codecs.lookup(name).name


@cache
def _by_python_codec() -> dict[str, Encoding]:
    """The Encoding Standard's encoding for each of the Python codecs used for one; replacement
    and x-user-defined have none of their own (their codecs stand for UTF-8 and latin-1).
    Built on first use: it imports some 40 of Python's codec modules."""
    found: dict[str, Encoding] = {}
    for encoding in ALL_ENCODINGS:
        if encoding not in (REPLACEMENT, X_USER_DEFINED):
            found.setdefault(codec_name(encoding.python_codec), encoding)
    found[codec_name("utf-8-sig")] = UTF_8  # UTF-8 whose BOM is dropped, as the standard's
    return found


@cache
def _explicit_encoding(name: str) -> Encoding | None:
    encoding = lookup(name)
    if encoding is not None:
        return encoding
    try:
        canonical = codecs.lookup(name).name
    except (LookupError, ValueError):
        return None
    # Python's names spell with "_" what the standard's labels spell with "-" (euc_kr).
    return (
        lookup(canonical)
        or lookup(canonical.replace("_", "-"))
        or _by_python_codec().get(canonical)
    )


def explicit_encoding(value: object) -> Encoding | None:
    """The encoding an explicit ``encoding=`` given to a response names, or ``None``.

    An Encoding Standard label (``"utf-8"``, ``"shift_jis"``) or a Python codec name for one
    of its encodings (``"cp932"`` -> Shift_JIS, ``"utf_8"``, ``"latin-1"`` -> windows-1252);
    anything else (``"utf-7"``, ``"rot13"``, a non-string) names none.
    """
    if isinstance(value, Encoding):
        encoding: Encoding | None = lookup(value.name)
    elif not isinstance(value, str) or len(value) > 100:
        return None
    else:
        # The plugin's own codec names (response.encoding, kept by replace(body=str)).
        encoding = encoding_of(value) or _explicit_encoding(value)
    # No one encodes bytes in "replacement": its labels (iso-2022-kr, hz-gb-2312...) name
    # Python codecs the bytes were encoded with (explicit_codec).
    return None if encoding == REPLACEMENT else encoding


def explicit_label(label: object) -> tuple[Encoding, str] | None:
    """The encoding an explicit ``encoding=`` (``label``, ``None`` for none) names, with the
    label as a string, or ``None`` when it names none."""
    if label is None:
        return None
    encoding = explicit_encoding(label)
    return None if encoding is None else (encoding, str(label))


def explicit_codec(value: object) -> str | None:
    """The Python text codec an explicit ``encoding=`` names when it names no encoding of the
    Encoding Standard (``cp852``, ``utf-7``, ``iso-2022-kr``), or ``None``.

    Whoever built the response encoded its bytes with that codec: they are decoded with it, as
    stock Scrapy does. Names of codecs that do not turn bytes into text (``rot13``,
    ``base64``, ``undefined``) are none.
    """
    if not isinstance(value, str) or len(value) > 100 or explicit_encoding(value) is not None:
        return None
    return _text_codec(value)


@cache
def _text_codec(name: str) -> str | None:
    try:
        info = codecs.lookup(name)
        if not getattr(info, "_is_text_encoding", True):
            return None
        # Any bytes ("undefined" always fails, "idna" and "punycode" fail on most).
        codecs.decode(bytes(range(256)), info.name, "replace")
    except Exception:
        return None
    return info.name


def explicit_decision(body: bytes, encoding: Encoding, label: str) -> Decision:
    """An explicit encoding is certain, like a ``Content-Type`` charset: only a BOM beats it
    (as it does in stock Scrapy)."""
    bom = bom_sniff(body)
    if bom is None:
        return Decision(encoding, Source.EXPLICIT, label, confident=True)
    lost = () if bom == encoding else (Declaration(Source.EXPLICIT, label, encoding),)
    return Decision(bom, Source.BOM, None, lost, confident=True)


class BrowserDecoding(NamedTuple):
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

    def with_kind(self, kind: str) -> BrowserDecoding:
        if kind == self.kind:
            return self
        return BrowserDecoding(kind, self.detector, self.tld_hint, self.forced)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (Scrapy's HTTP cache pickles ``to_dict()``) without the middleware's guard
        # around the detector; a detector that cannot be pickled (one holding its crawler)
        # is replaced by the default one.
        detector = self.detector
        if isinstance(detector, DetectorGuard):
            detector = detector.detector
        if detector is not _UNSET and detector is not None and detector is not DEFAULT_DETECTOR:
            try:
                pickle.dumps(detector)
            except Exception:
                detector = _UNSET
        return (BrowserDecoding, (self.kind, detector, self.tld_hint, self.forced))

    def decode(
        self,
        body: bytes,
        content_type: list[bytes],
        url: str | None,
        explicit: tuple[Encoding, str] | None = None,
    ) -> tuple[str, Decision]:
        """The browser's text and the decision; ``explicit`` is an encoding given to the
        response by whoever built it (and its label), which beats everything but a BOM."""
        decision, text = self.decide(body, content_type, url, explicit)
        return (decode_as_decided(body, decision) if text is None else text), decision

    def decide(
        self,
        body: bytes,
        content_type: list[bytes],
        url: str | None,
        explicit: tuple[Encoding, str] | None = None,
    ) -> tuple[Decision, str | None]:
        """:meth:`decode`'s decision, and its text where deciding decoded the whole body
        already (valid UTF-8), else ``None``: the text is ``decode_as_decided(body,
        decision)``, made when it is first wanted."""
        if explicit is not None:
            return explicit_decision(body, *explicit), None
        # An XML media type is parsed as XML by a browser, whatever class Scrapy picked
        # (application/xhtml+xml arrives as an HtmlResponse).
        if self.kind == "xml" or (content_type and is_xml_mime_type(content_type)):
            return sniff_xml(body, content_type or None, forced=self.forced), None
        # decode_html()'s or decode_text()'s, whose one body this is.
        return sniff_document(
            body,
            content_type or None,
            url,
            self.forced,
            detector=DEFAULT_DETECTOR if self.detector is _UNSET else self.detector,
            tld_hint=self.tld_hint,
            html=self.kind == "html",
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
    Leading and trailing C0 controls and spaces are dropped first and ASCII tabs and newlines
    removed, as the URL Standard's parser (and w3lib) does before anything else.
    """
    if url.isascii() and not _CONTROL.search(url):
        return url
    url = url.strip(_C0_CONTROL_OR_SPACE).translate(_NO_TAB_OR_NEWLINE)
    rest, hash_, fragment = url.partition("#")
    base, question, query = rest.partition("?")
    if query:
        query = percent_encode_after_encoding(query, _as_output(encoding))
    if fragment:
        fragment = _percent_encode(fragment.encode("utf-8", "surrogatepass"))
    return base + question + query + hash_ + fragment


_CONTROL = lazy_compile("[\x00-\x1f]")
_C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))
_NO_TAB_OR_NEWLINE = dict.fromkeys(map(ord, "\t\n\r"))
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


# follow(url, callback, method, headers, body, cookies, meta, encoding, ...): the place of
# ``encoding`` among the arguments after the URL (Scrapy 2.11 to 2.19).
_ENCODING_POSITION = 6


def _encoding_argument(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The ``encoding`` given to ``follow()``, by name or by position; None when not given."""
    if "encoding" in kwargs:
        return kwargs["encoding"]
    return args[_ENCODING_POSITION] if len(args) > _ENCODING_POSITION else None


def _query_encoding(given: Any) -> Encoding | None:
    """The encoding a query is encoded with, as a browser does, for ``follow(encoding=given)``;
    None where the URL is left to Scrapy, which encodes the query with the codec itself: a
    Python codec the Encoding Standard lacks (``"mac_roman"``), or UTF-16 (whose output
    encoding, UTF-8, Scrapy would encode again in UTF-16)."""
    encoding = explicit_encoding(given)
    return encoding if encoding is not None and output_encoding(encoding) == encoding else None


try:  # the ValueError subclass Scrapy's follow() raises for a selector it cannot follow
    from scrapy.http.response.text import _InvalidSelector as _UnsupportedSelector
except ImportError:  # (a Scrapy without it)
    _UnsupportedSelector = ValueError  # type: ignore[misc,assignment]


def _url_from_selector(selector: parsel.Selector) -> str:
    """The URL a selector stands for, as Scrapy's ``follow`` reads it: a string selected
    (``@href``), or an ``<a>``/``<link>`` element's ``href``. Anything else raises the
    ``ValueError`` Scrapy raises."""
    root = selector.root
    if isinstance(root, str):
        return strip_html5_whitespace(root)
    if not hasattr(root, "tag"):
        raise _UnsupportedSelector(f"Unsupported selector: {selector}")
    if root.tag not in ("a", "link"):
        raise _UnsupportedSelector(
            f"Only <a> and <link> elements are supported; got <{root.tag}>"
        )
    href = root.get("href")
    if href is None:
        raise _UnsupportedSelector(f"<{root.tag}> element has no href attribute: {selector}")
    return strip_html5_whitespace(href)


# The selector type Scrapy gives each kind of response (plain text: parsel guesses, and
# guesses from the start of the body as bytes otherwise than from the text).
_SELECTOR_TYPES = {"html": "html", "xml": "xml"}
_UTF8_BOM = b"\xef\xbb\xbf"
_BYTES_WHITESPACE = " \t\n\r\x0b\x0c"  # what bytes.strip() strips


@cache
def parsel_parses_body_as_text() -> bool:
    """Whether parsel builds the same selector from a UTF-8 body as from its text: from 1.10
    on. parsel 1.8 and 1.9 read any text that is valid JSON as JSON, whatever the type asked
    for, but a body only when its encoding is spelt ``"utf8"``."""
    try:
        major, minor = (int(part) for part in parsel.__version__.split(".")[:2])
    except (AttributeError, ValueError):
        return False
    return (major, minor) >= (1, 10)


def _parsel_bytes(body: bytes, text: str, decision: Decision | None) -> bytes | None:
    """The bytes parsel makes of ``text`` (``text.strip().replace("\x00", "").encode("utf-8")``)
    where, handed them as a UTF-8 body, it parses exactly those (from a body it strips NUL
    bytes and ASCII whitespace only); ``None`` elsewhere.

    So where the text holds no NUL and what ``str.strip()`` strips from it is ASCII whitespace
    only: then they are the text's UTF-8, which is ``body`` itself where the text is ``body``
    decoded as UTF-8 without a BOM and without an error (no U+FFFD: the body is valid UTF-8).
    That the text holds no NUL is read from the body: the decoders of the Encoding Standard make
    U+0000 only of 0x00 bytes (one, or UTF-16's two; the single-byte tables, the multi-byte
    indexes and ISO-2022-JP's states map nothing else to it, an error to U+FFFD), which ``in``
    finds in bytes far faster than in text."""
    if decision is None or b"\x00" in body:
        return None
    core = text.strip(_BYTES_WHITESPACE)
    if not core or core[0].isspace() or core[-1].isspace():
        return None
    utf8_body = decision.encoding.name == "UTF-8" and not body.startswith(_UTF8_BOM)
    return body if utf8_body and "\ufffd" not in text else text.encode("utf-8")


class TextHook:
    """What is to be done with a taken-over response's text when it is first decoded (the
    middleware's statistics of the text): a subclass's ``seen(text)``, once (a copy made with
    ``copy.copy`` shares it). Exceptions are its own to handle. Not kept by copies made with
    ``pickle`` or ``copy.deepcopy`` (a copy's text is not the response's)."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = False

    def __call__(self, text: str) -> None:
        if not self.done:
            self.done = True
            self.seen(text)

    def seen(self, text: str) -> None:
        raise NotImplementedError

    def __reduce__(self) -> tuple[Any, ...]:
        return (_no_hook, ())


def _no_hook() -> None:
    return None


class CharsetResponseMixin:
    """The browser-text behaviour shared by the three response classes below.

    The middleware takes a response of Scrapy's over in place (:func:`take_over` changes its
    class; nothing is copied), so these classes add no storage of their own: the browser's
    text lives in Scrapy's text cache (``_cached_ubody``), the parsed JSON in its JSON cache
    (``_cached_decoded_json``), and the options with the decision (``None`` until decided)
    and what is to be told of the text when it is first decoded (``None``, or a
    :class:`TextHook`) in the slot Scrapy caches its inferred encoding in (``_cached_benc``),
    which these classes never use for that. A decided body is decoded when its text is first
    wanted (``text``, ``selector``; ``encoding`` does not need it). Where the installed
    Scrapy lacks one of these slots, the classes add it (see :data:`IN_PLACE`).
    """

    __slots__ = ()

    _charset_kind: str = "html"  # the rules of this class (an XML media type still gets XML's)
    _cached_ubody: str | None
    _cached_benc: Any  # here: (BrowserDecoding, Decision | None, TextHook | None)
    _cached_decoded_json: Any
    _cached_selector: Any
    _encoding: str | None
    _url: str
    body: bytes
    url: str
    headers: Any

    def _charset_init(
        self,
        charset_options: BrowserDecoding | None,
        text: str | None = None,
        decision: Decision | None = None,
    ) -> None:
        options = charset_options if isinstance(charset_options, BrowserDecoding) else None
        options = (options or DEFAULT_DECODING).with_kind(self._charset_kind)
        self._cached_benc = (options, decision, None)
        self._cached_ubody = text  # type: ignore[misc]
        self._cached_selector = None
        self._cached_decoded_json = _UNSET

    def _set_url(self, url: str) -> None:
        # Scrapy < 2.12 reads self.encoding here (to no effect on a str URL), which would
        # decode the body before it is set: store the URL as it is instead.
        if isinstance(url, str):
            self._url = url  # type: ignore[misc]
        else:
            super()._set_url(url)  # type: ignore[misc]

    def charset_preset(self, text: str | None, decision: Decision | None) -> None:
        """Store the text (``None``: decoded as decided when first wanted) and decision
        already computed for this body."""
        self._cached_ubody = text  # type: ignore[misc]
        self._cached_benc = (self._cached_benc[0], decision, None)

    @property
    def charset_options(self) -> BrowserDecoding:
        return self._cached_benc[0]  # type: ignore[no-any-return]

    @property
    def charset_decision(self) -> Decision | None:
        """The decision for this body; ``None`` when an explicit ``encoding=`` names a Python
        codec outside the Encoding Standard, which decodes the body as in stock Scrapy."""
        decision = self._cached_benc[1]
        if decision is None and self._cached_ubody is None:
            self._charset_decode()
            decision = self._cached_benc[1]
        return decision  # type: ignore[no-any-return]

    def _explicit(self) -> tuple[Encoding, str] | None:
        """The explicit ``encoding=`` given to this response, when it names an encoding."""
        return explicit_label(self._encoding)

    def _charset_decode(self) -> None:
        # An explicit encoding= (whoever built the response knows how its bytes are encoded)
        # wins over everything but a BOM; one that names a Python codec the standard lacks
        # decodes as in stock Scrapy; one that names nothing is ignored (sniffing).
        options, decision, hook = self._cached_benc
        if decision is not None:  # decided when taken over (nothing needed the text then)
            text = self._cached_ubody = decode_as_decided(self.body, decision)  # type: ignore[misc]
            if hook is not None:
                self._cached_benc = (options, decision, None)
                hook(text)
            return
        if explicit_codec(self._encoding) is not None:
            self.charset_preset(TextResponse.text.fget(self), None)  # type: ignore[attr-defined]
            return
        text, decision = options.decode(
            self.body, self.headers.getlist(b"Content-Type"), self.url, self._explicit()
        )
        self.charset_preset(text, decision)

    @property
    def text(self) -> str:
        """The body as a browser decodes it (computed once)."""
        if self._cached_ubody is None:
            self._charset_decode()
        return self._cached_ubody  # type: ignore[return-value]

    @property
    def encoding(self) -> str:
        """The Python codec a browser would encode this document's URLs and forms with.

        Also for an explicit ``encoding=`` that names an encoding: the text was decoded with
        the Encoding Standard's decoder for it, so it is encoded back with its encoder. For
        XML responses, Python's nearest codec instead: XML tools such as Scrapy's
        ``xmliter_lxml`` hand the name to libxml2, which knows only its own names. An
        ``encoding=`` that names no encoding is ignored, like for the text (sniffed).
        """
        if explicit_codec(self._encoding) is not None:  # a Python codec the standard lacks
            return self._encoding  # type: ignore[return-value]
        decision = self.charset_decision
        assert decision is not None  # only None for such a codec
        if self._charset_kind == "xml" and decision.encoding not in _UTF_16:
            return self._portable_encoding()
        return output_codec(decision.encoding)

    @property
    def selector(self) -> Any:
        """Scrapy's selector of the browser's text (cached).

        Where parsel, handed the text's UTF-8 as a body, parses the very bytes it would make
        of the text (the same whitespace stripped, no NUL), it is handed them: the same tree,
        without its scan of the text for NUL; for a UTF-8 body decoded without error, the body
        itself, not encoded back. Otherwise Scrapy's own ``Selector(response)``.
        """
        if self._cached_selector is None:
            from scrapy.selector import Selector  # as Scrapy: a circular import otherwise

            response: Any = self
            text = self.text
            kind: Any = _SELECTOR_TYPES.get(self._charset_kind)
            utf8 = None
            if kind is not None and parsel_parses_body_as_text():
                utf8 = _parsel_bytes(self.body, text, self._cached_benc[1])
            if utf8 is None:
                self._cached_selector = Selector(response)
            else:
                base_url = get_base_url(response)
                selector = Selector(type=kind, body=utf8, encoding="utf-8", base_url=base_url)
                selector.response = response  # what Selector(response) sets
                selector._text = text
                self._cached_selector = selector
        return self._cached_selector

    def json(self) -> Any:
        """The body parsed as JSON (cached), as stock Scrapy 2.19 and browsers do: UTF-8
        (UTF-16 and UTF-32 too, RFC 8259 / ``json.loads`` on bytes), the text only for a body
        that is none of those."""
        if self._cached_decoded_json is _UNSET:
            try:
                self._cached_decoded_json = json.loads(self.body)
            except UnicodeDecodeError:
                self._cached_decoded_json = json.loads(self._json_text())
        return self._cached_decoded_json

    def _json_text(self) -> str:
        """The text of a JSON body that is not UTF-8/16/32. JSON is no XML: an XML response's
        default (UTF-8, which it is not) gives way to the plain-text rules, as in stock
        Scrapy, which decodes it with its guess."""
        if self._charset_kind != "xml" or self._explicit() is not None:
            return self.text
        options = self.charset_options.with_kind("text")
        content_type = self.headers.getlist(b"Content-Type")
        return options.decode(self.body, content_type, self.url)[0]

    def follow(self, url: Any, *args: Any, **kwargs: Any) -> Any:
        """Scrapy's ``follow``, with the URL a browser would request.

        The query is encoded with the page's encoding (its Encoding Standard encoder; a
        character it lacks as ``%26%23N%3B``), the fragment as UTF-8 (URL Standard). The
        ``encoding`` argument, if given, replaces the page's encoding, as in Scrapy.

        The request's own ``encoding`` is then Python's codec for the page's output encoding
        (``"cp1252"``, not the plugin's ``scrapy-charset-windows-1252``): the URL is already
        encoded, and a request stored by a disk queue (``JOBDIR``), a Redis scheduler or a
        pickle must load where the plugin is not imported (a crawl resumed without it).
        """
        if isinstance(url, Link):
            url = url.url
        elif isinstance(url, parsel.Selector):
            url = _url_from_selector(url)
        if isinstance(url, str):
            # (as browsers and newer w3lib do; w3lib 2.1.0, Scrapy 2.11's oldest, keeps them)
            url = url.strip(_C0_CONTROL_OR_SPACE)
        given = _encoding_argument(args, kwargs)
        if isinstance(url, str) and not (url.isascii() and not _CONTROL.search(url)):
            encoding = self.encoding if given is None else _query_encoding(given)
            if encoding is not None:
                # A reference that is empty or a fragment alone takes the base's query (which
                # a <base href> may hold unencoded): joined first. Any other keeps its own, so
                # it is encoded as it is and joined once, by Scrapy.
                if not url or url[0] == "#":
                    url = self.urljoin(url)  # type: ignore[attr-defined]
                url = browser_url(url, encoding)
        if given is None:
            portable = self._portable_encoding()
            if len(args) > _ENCODING_POSITION:
                args = (*args[:_ENCODING_POSITION], portable, *args[_ENCODING_POSITION + 1 :])
            else:
                kwargs["encoding"] = portable
        return super().follow(url, *args, **kwargs)  # type: ignore[misc]

    def _utf_16(self) -> bool:
        decision = self.charset_decision
        return decision is not None and decision.encoding in _UTF_16

    def _portable_encoding(self) -> str:
        """A codec of Python's own for this document: its output encoding's (an XML
        response's ``encoding``, a followed request's); a Python codec given as ``encoding=``
        as it is."""
        decision = self.charset_decision
        if decision is None:
            return self.encoding
        return output_encoding(decision.encoding).python_codec

    def replace(self, *args: Any, cls: type | None = None, **kwargs: Any) -> Any:
        """Scrapy's ``replace``; see the README for what the copy keeps."""
        # Same bytes, headers and encoding: the copy reads the same text (even under a URL
        # with another TLD), without decoding again.
        same_text = not any(name in kwargs for name in ("body", "headers", "encoding"))
        undecided = self._cached_benc[1] is None and self._cached_ubody is None
        if same_text and "url" in kwargs and undecided:
            self._charset_decode()  # with this URL's TLD: the copy keeps this text
        if "encoding" not in kwargs:
            if isinstance(kwargs.get("body"), str):
                # Encoded with the current encoding, as Scrapy does, which stays explicit
                # (UTF-16's codec writes UTF-8, which is then what the body is).
                kwargs["encoding"] = self._portable_encoding() if self._utf_16() else self.encoding
            elif self._encoding is not None:
                kwargs["encoding"] = self._encoding  # an explicit encoding stays
        target = type(self) if cls is None else cls
        if not (isinstance(target, type) and issubclass(target, CharsetResponseMixin)):
            return self._replace_as_stock(target, args, kwargs)
        new = super().replace(*args, cls=target, **kwargs)  # type: ignore[misc]
        decision = self._cached_benc[1]
        if same_text and decision is not None and new._charset_kind == self._charset_kind:
            new.charset_preset(self._cached_ubody, decision)
            if self._cached_ubody is None:  # (one hook: whichever text is read first counts)
                new._cached_benc = (new._cached_benc[0], decision, self._cached_benc[2])
        return new

    def _replace_as_stock(self, target: Any, args: Any, kwargs: dict[str, Any]) -> Any:
        """A recast to a class of Scrapy's own (``replace(cls=HtmlResponse)``): everything but
        our options, and the codec the text was decoded with, as Scrapy's ``replace`` pins:
        the plugin's codec for the decision's encoding, so the recast reads the same text."""
        for name in self.attributes:  # type: ignore[attr-defined]
            if name != "charset_options":
                kwargs.setdefault(name, getattr(self, name))
        if isinstance(target, type) and issubclass(target, TextResponse):
            decision = self.charset_decision
            if "encoding" not in kwargs and decision is not None:
                kwargs["encoding"] = plugin_codec(decision.encoding)
        return target(*args, **kwargs)

    if hasattr(TextResponse, "to_dict"):  # Scrapy 2.19+; older responses have none

        def to_dict(self) -> dict[str, Any]:
            """Scrapy's ``to_dict`` (used by its HTTP cache), keeping an explicit encoding."""
            d: dict[str, Any] = super().to_dict()  # type: ignore[misc]
            if self._encoding is not None:
                d["encoding"] = self._encoding
            return d


# The attributes of Scrapy's TextResponse the classes below keep their state in.
STATE_ATTRIBUTES = (
    "_cached_benc",
    "_cached_decoded_json",
    "_cached_selector",
    "_cached_ubody",
    "_encoding",
)


def missing_state_slots(base: type) -> tuple[str, ...] | None:
    """The :data:`STATE_ATTRIBUTES` that ``base``'s instances have no slot for, or ``None``
    where they keep their attributes in a ``__dict__`` (as in Scrapy 2.11)."""
    if base.__dictoffset__:
        return None
    return tuple(
        name
        for name in STATE_ATTRIBUTES
        if not isinstance(getattr(base, name, None), types.MemberDescriptorType)
    )


_MISSING_SLOTS = missing_state_slots(TextResponse)
# Whether take_over() can change a Scrapy response's class in place: Scrapy keeps responses'
# attributes in slots (2.19; the flags in _flags), among them every one the classes below
# keep their state in, so they add none and have the same layout. Otherwise (a __dict__ in
# Scrapy 2.11, or a Scrapy without one of these slots, to which the classes below add it) the
# response is copied.
IN_PLACE = _MISSING_SLOTS == () and isinstance(
    getattr(Response, "_flags", None), types.MemberDescriptorType
)
_OWN_SLOTS = _MISSING_SLOTS or ()


def _charset_attributes(base: type[TextResponse]) -> tuple[str, ...]:
    # "encoding" is left out so replace() does not pin the old body's encoding on a new body.
    return tuple(name for name in base.attributes if name != "encoding") + ("charset_options",)


class CharsetHtmlResponse(CharsetResponseMixin, HtmlResponse):
    """An :class:`~scrapy.http.HtmlResponse` whose text is the browser's."""

    __slots__ = _OWN_SLOTS
    _charset_kind = "html"

    attributes: tuple[str, ...] = _charset_attributes(HtmlResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._charset_init(charset_options)


class CharsetXmlResponse(CharsetResponseMixin, XmlResponse):
    """An :class:`~scrapy.http.XmlResponse` whose text is the browser's."""

    __slots__ = _OWN_SLOTS
    _charset_kind = "xml"

    attributes: tuple[str, ...] = _charset_attributes(XmlResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._charset_init(charset_options)


class CharsetTextResponse(CharsetResponseMixin, TextResponse):
    """A plain :class:`~scrapy.http.TextResponse` whose text is the browser's."""

    __slots__ = _OWN_SLOTS
    _charset_kind = "text"

    attributes: tuple[str, ...] = _charset_attributes(TextResponse)

    def __init__(self, *args: Any, charset_options: BrowserDecoding | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._charset_init(charset_options)


def take_over(
    response: Response,
    target: type[TextResponse],
    options: BrowserDecoding,
    text: str | None,
    decision: Decision,
    encoding: str | None = None,
    flag: str | None = None,
    hook: TextHook | None = None,
) -> Response:
    """``response`` as an instance of ``target``, one of the classes above: the same body,
    headers and request, its flags and ``flag`` (in a new list); the decision and text as
    already computed (``None``: decoded as decided when first wanted, then handed to
    ``hook``), ``encoding`` (an explicit one, or ``None``) as its explicit encoding, and
    whatever Scrapy had cached dropped. ``response`` must be exactly of ``target``'s Scrapy
    base class.

    Where Scrapy's responses keep their attributes in slots these classes share
    (:data:`IN_PLACE`), the object itself is taken over: its class changes, nothing is
    copied. Otherwise a copy is made.
    """
    if not IN_PLACE:
        copy = target(
            **{name: getattr(response, name) for name in _COPIED_ATTRIBUTES},
            flags=response.flags if flag is None else [*response.flags, flag],
            charset_options=options,
            encoding=encoding,
        )
        copy.headers = response.headers  # shared, not copied: the old response is dropped
        copy.charset_preset(text, decision)  # type: ignore[attr-defined]
        copy._cached_benc = (copy.charset_options, decision, hook)  # type: ignore[attr-defined,assignment]
        return copy
    # What _charset_init sets, set here without its calls (once per response crawled).
    kind = target._charset_kind  # type: ignore[attr-defined]
    if flag is not None:  # the flags property's list, without its two calls
        flags = response._flags  # type: ignore[attr-defined]
        response._flags = [flag] if flags is None else [*flags, flag]  # type: ignore[attr-defined]
    response.__class__ = target
    response._encoding = encoding  # type: ignore[attr-defined]
    options = options if options.kind == kind else options.with_kind(kind)
    response._cached_benc = (options, decision, hook)  # type: ignore[attr-defined]
    response._cached_ubody = text  # type: ignore[attr-defined]
    response._cached_selector = None  # type: ignore[attr-defined]
    response._cached_decoded_json = _UNSET  # type: ignore[attr-defined]
    return response


# Constructor arguments copied as they are by take_over's copy.
_COPIED_ATTRIBUTES = tuple(
    name for name in HtmlResponse.attributes if name not in {"encoding", "headers", "flags"}
)
