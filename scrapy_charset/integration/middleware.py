"""A downloader middleware that gives every HTML response the text a browser would show.

Place it at 585, between ``MetaRefreshMiddleware`` (580, reads ``response.text``) and
``HttpCompressionMiddleware`` (590): it then sees decompressed bytes, and everything that reads
the text after it (meta refresh, callbacks, link extractors, item loaders) reads the browser's.

The body bytes are kept as they came; the response becomes a
:class:`~scrapy_charset.integration.response.CharsetHtmlResponse` carrying the decoded text,
and the decision is recorded on the response (``response.charset_decision``, the full
:class:`~scrapy_charset.sniffing.Decision`), as plain JSON-compatible values in
``request.meta["charset_decision"]`` (so that any scheduler serializer can store a request whose
meta was copied from the response), in a ``charset:<source>`` response flag and in the
``charset/...`` stats. Any internal error leaves the response exactly as Scrapy delivered it.
"""

from __future__ import annotations

import codecs
import logging
import re
import sys
import warnings
from collections.abc import Callable
from functools import cache, lru_cache, wraps
from typing import TYPE_CHECKING, Any

import w3lib.encoding as _w3lib_encoding
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Headers, HtmlResponse, Request, Response, TextResponse, XmlResponse

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
    get_encoding,
    lookup,
)
from ..encoding.fast import (
    charmap_table,
    holds_any,
    holds_word,
    is_ascii,
)
from ..encoding.tables.fast_cjk_data import FAST_CJK
from ..sniffing import Decision, Source, is_xml_mime_type
from ..sniffing.content_type import LONG_CACHED_LENGTH, charset_from_content_type
from ..sniffing.documents import sniff_xml
from ..sniffing.prescan import PRESCAN_LIMIT
from ..sniffing.sniff import (
    LATE_META_LIMIT,
    certain_decision,
    decode_as_decided,
    leading_meta,
    may_declare,
    sniff,
)
from .response import (
    BrowserDecoding,
    CharsetHtmlResponse,
    CharsetResponseMixin,
    CharsetTextResponse,
    CharsetXmlResponse,
    DetectorGuard,
    TextHook,
    _explicit_encoding,
    codec_name,
    explicit_codec,
    explicit_label,
    portable_codec,
    take_over,
)
from .settings import read_settings

# w3lib 2.6 on decodes as the Encoding Standard (through frostwork): labels resolve to the
# standard's encodings only, to_unicode and html_to_unicode decode with the standard's decoders,
# a UTF-32LE BOM reads as UTF-16LE's and a UTF-16 XML declaration without a BOM as UTF-16, and
# a <meta> is found as browsers find it, late ones included (a UTF-16 label read as UTF-8,
# x-user-defined as windows-1252). Before 2.6, Python's codecs decode what Python's codec
# lookup resolves, and a <meta> is read by w3lib's regular expressions in the first 4,096
# bytes. The model of stock Scrapy (the charset/changed statistic) follows the w3lib installed.
# (html_encoding() is new in 2.6.0.)
W3LIB_DECODES_THE_STANDARD = hasattr(_w3lib_encoding, "html_encoding")


class StockScrapyFails(RuntimeError):
    """w3lib failed where stock Scrapy asks it the same (its ``.text`` fails too): a panic of
    w3lib 2.6's compiled code (frostwork's scan panics on a body ending in ``<meta``), which
    pyo3 raises as ``PanicException``, a ``BaseException`` no ``except Exception`` catches."""


def _panics_as_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (w3lib's, for the model of stock Scrapy), a panic of compiled code raised
    as :class:`StockScrapyFails`: an error like any other, never one that leaves the crawl."""

    @wraps(function)
    def call(*args: Any) -> Any:
        try:
            return function(*args)
        except Exception:
            raise
        except BaseException as exc:
            if type(exc).__name__ != "PanicException":  # KeyboardInterrupt, SystemExit...
                raise
            raise StockScrapyFails(f"w3lib's {function.__name__} panicked: {exc}") from exc

    return call


html_body_declared_encoding = _panics_as_errors(_w3lib_encoding.html_body_declared_encoding)
http_content_type_encoding = _panics_as_errors(_w3lib_encoding.http_content_type_encoding)
read_bom = _panics_as_errors(_w3lib_encoding.read_bom)
resolve_encoding = _panics_as_errors(_w3lib_encoding.resolve_encoding)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.spiders import Spider
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

PRIORITY = 585

META_OPT_OUT = "dont_charset"
META_FORCE = "charset_encoding"
META_DECISION = "charset_decision"
SPIDER_OPT_OUT = "charset_enabled"

# Scrapy's own response class -> (kind name used in CHARSET_RESPONSE_TYPES, our subclass).
# Only these exact classes are taken over: subclasses from other plugins carry state of their
# own and pass through untouched.
_TAKEOVER: dict[type[Response], tuple[str, type[TextResponse]]] = {
    HtmlResponse: ("html", CharsetHtmlResponse),
    XmlResponse: ("xml", CharsetXmlResponse),
    TextResponse: ("text", CharsetTextResponse),
}

_FLAGS = {source: f"charset:{source.value}" for source in Source}
_SOURCE_KEYS = {source: f"charset/source/{source.value}" for source in Source}
_ENCODING_KEYS = {e.name: f"charset/encoding/{e.name}" for e in ALL_ENCODINGS}
_SKIPPED_KEYS = {
    reason: f"charset/skipped/{reason}"
    for reason in (
        "type", "dont_charset", "spider", "head", "not_modified", "redirect", "empty",
        "explicit_codec",
    )
}  # fmt: skip
_CHANGED, _CHANGED_UNKNOWN = ("charset/changed",), ("charset/changed_unknown",)
_REPLACED = ("charset/replacement_char",)
_STATISTICS_ERROR = ("charset/error", "charset/error/statistics")
# Content-Type values longer than this are not kept in the middleware's cache of plans.
_PLAN_VALUE_LENGTH = 256
_PLANS = 512  # at most this many cached plans (a crawl meets few distinct headers)
_UNPLANNED: Any = object()


class CharsetMiddleware:
    """Decode each HTML response as a browser does; see docs/responses.md."""

    def __init__(self, crawler: Crawler) -> None:
        config = read_settings(crawler.settings, crawler)
        if not config.enabled:
            raise NotConfigured
        self.crawler = crawler
        self.stats = crawler.stats
        self._inc = stats_counter(crawler.stats)  # made once: every response counts
        # Sniffing treats a failing detector as one without an answer; the guard keeps the
        # failure so that it is handled here like any internal error.
        self._guard = DetectorGuard(config.detector) if config.detector is not None else None
        # One decoding and one response class per kind of response taken over.
        self._targets: dict[type[Response], tuple[type[TextResponse], BrowserDecoding]] = {
            scrapy_cls: (
                target,
                BrowserDecoding(kind, self._guard, config.tld_hint, config.force_encoding),
            )
            for scrapy_cls, (kind, target) in _TAKEOVER.items()
            if kind in config.response_types
        }
        self._forced_decodings: dict[tuple[str, Encoding], BrowserDecoding] = {}
        self._plans: dict[tuple[str | bytes, ...], _Plan | None] = {}
        # The spider, not its charset_enabled: that is read per response, inside the guard (a
        # property that raises must not stop the crawl, a value without truth must not cost
        # a response).
        self._spider: Any = getattr(crawler, "spider", None)
        self._logged: set[str] = set()
        self._refresh_reads = meta_refresh_reads_text(crawler.settings)
        crawler.signals.connect(self._spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self._request_scheduled, signal=signals.request_scheduled)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetMiddleware:
        return cls(crawler)

    def _spider_opened(self, spider: Spider) -> None:
        self._spider = spider

    def _request_scheduled(self, request: Request, spider: Spider | None = None) -> None:
        # A request made with a response's encoding (FormRequest.from_response, or
        # Request(..., encoding=response.encoding)) carries the plugin's codec name; a disk
        # queue (JOBDIR) or a Redis scheduler stores it, and such a request would load only
        # where the plugin is imported: a crawl resumed without it would lose it. Its URL and
        # body are already encoded, so before it is stored it gets Python's codec for the
        # same output encoding (Request has no public setter: its own attribute).
        encoding = getattr(request, "_encoding", None)
        if isinstance(encoding, str):
            portable = portable_codec(encoding)
            if portable is not None:
                request._encoding = portable

    # -- the hooks ------------------------------------------------------------------------
    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        # A decision copied into a new request (meta=dict(response.meta), a retry, a meta
        # refresh) belongs to another page: it must not reach this request's errback or
        # callback.
        request.meta.pop(META_DECISION, None)

    def process_exception(
        self, request: Request, exception: BaseException, spider: Spider | None = None
    ) -> None:
        # Also when a middleware before this one failed the request before process_request.
        request.meta.pop(META_DECISION, None)

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        # ``spider`` is optional: current Scrapy passes only request and response.
        target = self._targets.get(type(response))
        if target is None:
            if not isinstance(response, CharsetResponseMixin):
                self._skip(request, "type")
            return response
        try:
            # User values (meta keys, the spider's attribute) are read in here too: one whose
            # truth value raises (a numpy array) must not cost the response.
            meta, body = request.meta, response.body
            label = getattr(response, "_encoding", None)
            if label is not None:
                label = _given_encoding(response, label)
            reason = self._skip_reason(request, meta, response, body, label)
            if reason is not None:
                self._skip(request, reason)
                return response
            target_class, decoding = target  # (a call with *target costs more)
            return self._take_over(request, meta, response, body, label, target_class, decoding)
        except Exception as exc:  # never lose a response to an internal error
            self._record_error(exc, response)
            request.meta.pop(META_DECISION, None)
            return response

    def _skip_reason(
        self, request: Request, meta: dict[str, Any], response: Response, body: bytes, label: Any
    ) -> str | None:
        opt_out = meta.get(META_OPT_OUT)
        if opt_out is not None and _truth(opt_out):
            return "dont_charset"
        spider = self._spider
        enabled = True if spider is None else getattr(spider, SPIDER_OPT_OUT, True)
        if enabled is not True and not _truth(enabled):
            return "spider"
        if request.method == "HEAD":
            return "head"
        if response.status == 304:
            return "not_modified"
        if 300 <= response.status < 400:
            return "redirect"
        if not body:
            return "empty"
        if label is not None and explicit_codec(label) is not None:
            # Encoded with a Python codec the Encoding Standard lacks: stock Scrapy's text.
            return "explicit_codec"
        return None

    def _skip(self, request: Request, reason: str) -> None:
        # A decision copied from an earlier request (e.g. through a redirect) must not stay.
        meta = request.meta
        if META_DECISION in meta:
            del meta[META_DECISION]
        self._inc(_SKIPPED_KEYS[reason])  # (made once: every XML or JSON response counts)

    def _take_over(
        self,
        request: Request,
        meta: dict[str, Any],
        response: Response,
        body: bytes,
        label: Any,
        target: type[TextResponse],
        decoding: BrowserDecoding,
    ) -> Response:
        if META_FORCE in meta:
            decoding = self._forced_by_meta(request, decoding)
        headers = response.headers
        if type(headers) is Headers:  # getlist()'s list, read without its three calls
            content_type = dict.get(headers, b"Content-Type") or []
        else:
            content_type = headers.getlist(b"Content-Type")
        if len(content_type) > 1:
            content_type = _one_if_repeated(content_type)
        explicit = None if label is None else self._explicit(response, label)
        certain = None
        if explicit is None and decoding.forced is None:
            certain = self._certain(body, content_type, decoding.kind)
        text: str | None
        if certain is None:
            decision, text = self._decide(body, content_type, response.url, explicit, decoding)
            outcome = None
        else:
            (decision, outcome), text = certain, None
        stock_header = None
        if outcome is not None:
            keys = outcome.keys
        else:
            if explicit is None:  # Scrapy's headers.get()
                stock_header = content_type[-1] if content_type else None
            else:  # stock Scrapy reads an explicit encoding as a header charset (a BOM first)
                stock_header = f"charset={explicit[1]}".encode("latin-1", "replace")
            keys = _decision_keys(decision)

        # In place, not copied: the response is Scrapy's own (_targets), which nothing else
        # keeps; an explicit encoding stays with it (copies, to_dict(), .encoding). The text
        # is decoded when first wanted (a spider reading only the body never pays for it),
        # and what the statistics say of it is counted then.
        encoding = None if explicit is None else explicit[1]
        flag = _FLAGS[decision.source]
        if text is None and self._refresh_reads and decoding.kind == "html":
            # Scrapy's MetaRefreshMiddleware, next, reads the text of such a response (as it
            # does without the plugin): decoded now, without the bookkeeping of later.
            redirect = meta.get("dont_redirect")
            if (redirect is None or redirect is False) and request.url.startswith(_HTTP):
                text = decode_as_decided(body, decision)
        # Counted first: where counting fails (a stats collector that raises), the response
        # goes on as Scrapy made it, as the error's log line says.
        if text is None:
            self._count(response, decision, keys, ())
            hook = _TextStatistics(self, body, outcome, stock_header, decision)
            new = take_over(response, target, decoding, None, decision, encoding, flag, hook)
        else:
            said = _text_keys(body, outcome, stock_header, decision, text)
            if said or keys[1]:
                self._count(response, decision, keys, said)
            else:
                self._inc(*keys[0])  # what _count counts here, without its call
            new = take_over(response, target, decoding, text, decision, encoding, flag)
        # Plain values, not the Decision: Scrapy and user code copy meta into new requests,
        # and a scheduler with a JSON serializer must be able to store them.
        record = decision.as_record() if outcome is None else outcome.record.copy()
        meta[META_DECISION] = record  # last: nothing can fail after it
        return new

    def _count(
        self,
        response: Response,
        decision: Decision,
        keys: tuple[tuple[str, ...], tuple[str, ...]],
        said: tuple[str, ...],
    ) -> None:
        """Counts a response taken over (``keys``, see :func:`_decision_keys`) and what is
        said of its text (``said``, see :func:`_text_keys`; empty where it is not decoded
        yet), and logs its own events."""
        counted, own = keys
        self._inc(*counted, *own, *said)
        if own:
            self._log_decision(response, decision, own)

    def _count_text(
        self,
        body: bytes,
        outcome: _Outcome | None,
        stock_header: bytes | None,
        decision: Decision,
        text: str,
    ) -> None:
        """What is said of a taken-over response's text, counted when it is first decoded
        (by whatever reads the text first: nothing may raise here)."""
        said = _text_keys(body, outcome, stock_header, decision, text)
        if said:
            try:
                self._inc(*said)
            except Exception:  # a stats collector that fails: nothing can be counted
                self._log_once(
                    "statistics",
                    logging.WARNING,
                    "Could not count the statistics of a response's text %r"
                    " (further failures are not logged)",
                    said,
                    exc_info=True,
                )

    def _decide(
        self,
        body: bytes,
        content_type: list[bytes],
        url: str,
        explicit: tuple[Encoding, str] | None,
        decoding: BrowserDecoding,
    ) -> tuple[Decision, str | None]:
        guard = self._guard
        if guard is not None:
            guard.failure = None
        decision, text = decoding.decide(body, content_type, url, explicit)
        if guard is not None and guard.failure is not None:
            raise guard.failure
        return decision, text

    def _certain(
        self, body: bytes, content_type: list[bytes], kind: str
    ) -> tuple[Decision, _Outcome | None] | None:
        """Where a BOM or the ``Content-Type`` charset decides, or in HTML a leading
        ``<meta charset>`` that stock Scrapy reads too, or in XML a leading XML declaration
        that stock Scrapy reads too: the decision and its outcome, shared by every
        body with this header and BOM (or label, or declaration); the outcome is ``None``
        where the decision overrode the document's own declarations. ``None`` otherwise:
        the general path.

        Equal to the general path's answer (``BrowserDecoding.decode``, ``_changed``,
        ``_decision_keys``): the header is read once per value (a plan), stock Scrapy's
        codec for a BOM from the BOM's bytes, for a header from the header alone; sniffing's
        rules are asked about the body only where its head may declare an encoding."""
        key: tuple[str | bytes, ...] = (kind, *content_type)
        plan = self._plans.get(key, _UNPLANNED)
        if plan is _UNPLANNED:
            plan = self._plan(key, content_type, kind)
        if plan is None:
            return None
        # bom_sniff() and decode_after_bom() without their calls (once per response).
        bom = _BOMS.get(body[:1])
        if bom is not None and body.startswith(bom[0]):
            mark, encoding, codec = bom
            # The codec stock Scrapy (w3lib) reads from the BOM: FF FE 00 00 is UTF-32LE's
            # before w3lib 2.6, UTF-16LE's (as in browsers) from 2.6 on.
            stock = (
                "utf-32-le"
                if encoding is UTF_16LE
                and body[2:4] == b"\x00\x00"
                and not W3LIB_DECODES_THE_STANDARD
                else codec
            )
            outcome = plan.bom_outcomes.get(stock)
            if outcome is None:
                outcome = _outcome(_certain_of(mark, plan.header), stock)
                plan.bom_outcomes[stock] = outcome
            if encoding is not UTF_8:  # after a UTF-16 BOM the prescan is moot
                return outcome.decision, outcome
        else:
            stock = None  # the header's (the plan's)
            if body[:4] == _UTF_32BE_BOM or (
                W3LIB_DECODES_THE_STANDARD and body[:2].find(b"\x00") >= 0
            ):
                # Stock Scrapy's codec is this BOM's: UTF-32BE's before w3lib 2.6, a UTF-16
                # XML declaration's without a BOM from 2.6 on (the general path).
                return None
            outcome = plan.header_outcome
            if outcome is None:  # no charset a browser or stock Scrapy knows in the header
                if not plan.reads_meta or _stock_scan_panics(body):
                    return None
                if plan.xml:
                    outcome = _xml_declaration_outcome(body, content_type)
                else:
                    outcome = _leading_meta_outcome(plan, body) or _plain_ascii_outcome(body)
                if outcome is None:
                    return None
                return outcome.decision, outcome
        if kind == "html" and not plan.xml and may_declare(body):
            # What the document declares (in its first 1,024 bytes), which the header or BOM
            # overrides.
            over = _over_document(plan, body, outcome, stock)
            return over.decision, over
        return outcome.decision, outcome

    def _plan(
        self, key: tuple[str | bytes, ...], content_type: list[bytes], kind: str
    ) -> _Plan | None:
        """The plan for the ``Content-Type`` values ``content_type`` of a ``kind`` of
        response, cached under ``key``; ``None`` for a value too long to keep (not cached).
        XML (an XML kind or media type, as ``BrowserDecoding.decode`` tells them) reads no
        ``<meta>`` (``xml``): where neither header has a charset, an XML declaration."""
        # (Not kept either: more values than a response has but from a server sending
        # the header again and again, whose bytes a cache key would keep alive.)
        if len(content_type) > 2 or any(len(value) > _PLAN_VALUE_LENGTH for value in content_type):
            return None
        if len(self._plans) >= _PLANS:
            self._plans.clear()
        xml = kind == "xml" or bool(content_type and is_xml_mime_type(content_type))
        header = charset_from_content_type(content_type or None)
        try:
            stock = _stock_header_codec(content_type[-1] if content_type else b"")
            known = True
        except Exception:  # left to the general path (where the statistic is unknown)
            stock, known = None, False
        stock = None if stock is None else codec_name(stock)
        header_outcome = None
        if header is not None and header[1] is not None and stock is not None:
            header_outcome = _outcome(_certain_of(b"", header), stock)
        # Neither a browser nor stock Scrapy reads a charset in the header: in HTML, the
        # body's declarations decide for both (in XML, its XML declaration).
        reads_meta = known and (xml or kind == "html") and header is None and stock is None
        plan = self._plans[key] = _Plan(
            header, header_outcome, {}, reads_meta, stock, {}, [(b"", None)], [], xml
        )
        return plan

    def _explicit(self, response: Response, label: Any) -> tuple[Encoding, str] | None:
        """The encoding given to the response by whoever built it (``label``, from
        :func:`_given_encoding`: a browser-rendering middleware or download handler
        re-encoding the DOM), if it names an encoding of the Encoding Standard (a label or a
        Python codec name for one)."""
        if label is None:
            return None
        explicit = explicit_label(label)
        if explicit is None:
            self._ignore(
                "charset/explicit/unknown",
                "Ignoring encoding=%r given to the response for %s: it names no text codec,"
                " the body is sniffed",
                label,
                response.url,
            )
            return None
        self._inc("charset/explicit")
        return explicit

    def _forced_by_meta(self, request: Request, decoding: BrowserDecoding) -> BrowserDecoding:
        label = request.meta.get(META_FORCE)
        if label is None:
            return decoding
        forced = _lookup_label(label.name if isinstance(label, Encoding) else label)
        if forced is None or forced == REPLACEMENT:
            # (replacement reads any page as one U+FFFD: no page can be read in it)
            self._ignore(
                "charset/forced/invalid",
                "Ignoring meta[%r]=%r on %s: not an Encoding Standard label of an encoding a"
                " page can be read in",
                META_FORCE,
                label,
                request.url,
            )
            return decoding
        key = (decoding.kind, forced)
        forced_decoding = self._forced_decodings.get(key)
        if forced_decoding is None:
            forced_decoding = self._forced_decodings[key] = decoding.with_forced(forced)
        return forced_decoding

    # -- stats and logs ---------------------------------------------------------------------
    def _log_decision(self, response: Response, decision: Decision, keys: tuple[str, ...]) -> None:
        if "charset/forced" in keys:
            self._log_once(
                "forced",
                logging.INFO,
                "Forced encoding %s for %s (further forced decodes are counted in charset/forced)",
                decision.encoding.name,
                response.url,
            )
        if "charset/conflict" in keys and "conflict" not in self._logged:  # (the message costs)
            losers = [d for d in decision.overridden if d.encoding is not None]
            self._log_once(
                "conflict",
                logging.INFO,
                "Conflicting encoding declarations in %s: used %s (%s) over %s"
                " (further conflicts are counted in charset/conflict)",
                response.url,
                decision.encoding.name,
                decision.source.value,
                ", ".join(f"{d.label!r} ({d.source.value})" for d in losers),
            )

    def _record_error(self, exc: Exception, response: Response) -> None:
        self._inc("charset/error")
        self._inc(f"charset/error/{type(exc).__name__}")
        self._log_once(
            "error",
            logging.ERROR,
            "Internal error while decoding %s; the response is passed on as Scrapy made it"
            " (further errors are counted in charset/error)",
            response.url,
            exc_info=True,
        )

    def _ignore(self, stat: str, message: str, *args: Any) -> None:
        """Count a user value that is ignored in ``stat``; warn about the first one."""
        self._inc(stat)
        message = f"{message} (further ones are counted in {stat})"
        self._log_once(stat, logging.WARNING, message, *args)

    def _log_once(self, event: str, level: int, message: str, *args: Any, **kwargs: Any) -> None:
        if event in self._logged:
            return
        self._logged.add(event)
        logger.log(level, message, *args, **kwargs)


class _Outcome(NamedTuple):
    """A certain decision made before the document's own declarations are read (by a BOM or
    the header), and what the middleware records for it."""

    decision: Decision
    comparison: tuple[str, Any] | None  # how stock Scrapy's text may differ; None: unknown
    unchanged: bool  # the same decoder: stock Scrapy's text is the same, whatever the body
    keys: tuple[tuple[str, ...], tuple[str, ...]]  # the stats keys (_decision_keys)
    record: dict[str, str | None]  # for request.meta (a copy of it)

    def changed(self, body: bytes, text: str) -> bool | None:
        """Whether stock Scrapy's text differs from ``text``; see :func:`stock_text_differs`."""
        comparison = self.comparison
        if comparison is None:
            return None
        if comparison[0] is _SAME:  # the same decoder: no need to look at the body
            return False
        try:
            return _differs(comparison, body, text)
        except Exception:  # a statistic is never the reason a response is not taken over
            return None


_HTTP = ("http://", "https://")


def meta_refresh_reads_text(settings: Any) -> bool:
    """Whether Scrapy's ``MetaRefreshMiddleware`` (or a subclass) is on: it reads the text of
    every HTML response fetched over HTTP(S) without ``dont_redirect``, after this
    middleware. (Only a matter of speed: the text is decoded now or when first wanted.)"""
    from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object

    try:
        if not settings.getbool("METAREFRESH_ENABLED"):
            return False
        for component in build_component_list(settings.getwithbase("DOWNLOADER_MIDDLEWARES")):
            component = load_object(component) if isinstance(component, str) else component
            if isinstance(component, type) and issubclass(component, MetaRefreshMiddleware):
                return True
    except Exception:  # odd settings are Scrapy's to report (the text is then read later)
        return False
    return False


def _text_keys(
    body: bytes, outcome: _Outcome | None, stock_header: bytes | None, decision: Decision, text: str
) -> tuple[str, ...]:
    """The statistics of a taken-over response's text: whether stock Scrapy's would differ
    (from the outcome of a certain decision, or from the header stock Scrapy reads), and
    whether it holds U+FFFD. Never raises: a statistic never costs a response or its text."""
    try:
        if outcome is not None:
            changed = False if outcome.unchanged else outcome.changed(body, text)
        else:
            changed = _changed(body, stock_header, text, decision)
    except Exception:
        return _STATISTICS_ERROR
    said = () if changed is False else _CHANGED if changed else _CHANGED_UNKNOWN
    return said + _REPLACED if "\ufffd" in text else said


class _TextStatistics(TextHook):
    """The middleware's statistics of a taken-over response's text, counted when it is first
    decoded (:meth:`CharsetMiddleware._count_text`)."""

    __slots__ = ("middleware", "body", "outcome", "stock_header", "decision")

    def __init__(
        self,
        middleware: CharsetMiddleware,
        body: bytes,
        outcome: _Outcome | None,
        stock_header: bytes | None,
        decision: Decision,
    ) -> None:
        self.done = False
        self.middleware = middleware
        self.body = body
        self.outcome = outcome
        self.stock_header = stock_header
        self.decision = decision

    def seen(self, text: str) -> None:
        self.middleware._count_text(
            self.body, self.outcome, self.stock_header, self.decision, text
        )


def _certain_of(bom: bytes, header: tuple[str, Encoding | None] | None) -> Decision:
    """The decision a BOM (``bom``, its bytes; or none) and the ``Content-Type`` charset
    (``header``) make."""
    decision = certain_decision(bom, header, None)
    assert isinstance(decision, Decision)  # a BOM or a header charset decides
    return decision


def _outcome(decision: Decision, stock: str) -> _Outcome:
    """The outcome of ``decision``, stock Scrapy's codec being ``stock``."""
    try:
        comparison: tuple[str, Any] | None = _comparison(decision.encoding, stock)
    except Exception:  # as _changed answers
        comparison = None
    unchanged = comparison is not None and comparison[0] is _SAME
    keys = _decision_keys(decision)
    return _Outcome(decision, comparison, unchanged, keys, decision.as_record())


class _Plan(NamedTuple):
    """What one list of ``Content-Type`` values settles for every body of a kind of response
    it comes with: the charset a browser reads in it, the outcome where it decides, and the
    outcomes after each BOM (by stock Scrapy's codec for it)."""

    header: tuple[str, Encoding | None] | None
    header_outcome: _Outcome | None
    bom_outcomes: dict[str, _Outcome]
    reads_meta: bool  # HTML whose header has no charset for a browser or stock Scrapy
    stock: str | None  # stock Scrapy's codec from the header
    # The outcome of the header, or of the BOM with stock Scrapy's codec for it, over a
    # leading <meta>'s label (by the BOM's codec, None for the header, and the label).
    meta_outcomes: dict[tuple[str | None, str], _Outcome]
    # The last outcome a leading <meta> settled, with the body's bytes through that <meta>:
    # the pages of a site share them, and nothing after the <meta> counts (leading_meta).
    last_meta: list[tuple[bytes, _Outcome | None]]  # one item
    # The last outcome _over_document settled without a leading <meta>, with the body's
    # first 1,024 bytes: none yet, or one item.
    last_head: list[tuple[bytes, _Outcome]]
    xml: bool = False  # sniffed as XML (sniff_xml): no <meta>, no prescan of the document


def _over_document(plan: _Plan, body: bytes, outcome: _Outcome, bom_codec: str | None) -> _Outcome:
    """The outcome where the header (``bom_codec`` ``None``: ``plan.header_outcome``) or a
    UTF-8 BOM (stock Scrapy reading it as ``bom_codec``: ``outcome``, of
    ``plan.bom_outcomes``) decides over what the document declares: ``outcome`` where the
    general rules' decision overrides nothing (``_lost`` keeps no declaration of the
    winning encoding), else that of their decision on ``body``.

    With a leading ``<meta>`` (:func:`~scrapy_charset.sniffing.sniff.leading_meta` in the
    first 1,024 bytes, after the BOM's bytes), the same for every body whose leading
    ``<meta>`` has its label (cached by the label and the BOM's codec), and remembered with
    the bytes through it. Without one, remembered with the first 1,024 bytes, all the
    general rules read (the prescan's; the BOM's among them), which the pages of a site
    often share: a head of unknown labels or of tag soup is scanned once, not per page."""
    head, remembered = plan.last_meta[0]
    # (A BOM body's head starts with the BOM, another's cannot: one memory serves both.)
    if head and body.startswith(head):
        assert remembered is not None
        return remembered
    first = body[:PRESCAN_LIMIT]
    last = plan.last_head
    if last and last[0][0] == first:
        return last[0][1]
    stock = plan.stock if bom_codec is None else bom_codec
    assert stock is not None  # (a header outcome is made only with stock Scrapy's codec)
    found = leading_meta(first)
    if found is None:
        decision = certain_decision(first, plan.header, None, True)
        assert isinstance(decision, Decision)
        if decision.overridden:
            outcome = _outcome(decision, stock)
        last[:] = [(first, outcome)]
        return outcome
    meta, _, end = found
    label = meta.label
    assert label is not None
    if meta.encoding is not outcome.decision.encoding:
        key = (bom_codec, label)
        overriding = plan.meta_outcomes.get(key)
        if overriding is None:
            decision = certain_decision(first, plan.header, None, True)
            assert isinstance(decision, Decision)
            overriding = _outcome(decision, stock)
            if len(plan.meta_outcomes) >= _PLANS:  # labels as spelled: servers may vary them
                plan.meta_outcomes.clear()
            plan.meta_outcomes[key] = overriding
        outcome = overriding
    plan.last_meta[0] = (body[:end], outcome)
    return outcome


def _one_if_repeated(values: list[Any]) -> list[Any]:
    """The ``Content-Type`` values, one where a server repeats one value (a hostile one, some
    hundreds of times): a browser's and stock Scrapy's readings are those of the one value
    where it holds no comma or quote (each of its repeats then changes nothing), and every
    plan, cache and reading of the list would otherwise go through each repeat."""
    first = values[0]
    if (
        type(first) is bytes
        and values.count(first) == len(values)
        and first.find(b",") < 0
        and first.find(b'"') < 0
    ):
        return values[:1]
    return values


def _stock_scan_panics(body: bytes) -> bool:
    """Whether w3lib 2.6's scan for a ``<meta>`` (frostwork 0.2) panics on ``body``, so that
    stock Scrapy's ``.text`` raises where it reads the body's declaration: a body ending in
    ``<meta`` in any letter case (the one class found by fuzzing its scan). The general path
    then decides, where the statistic counts the failure (:class:`StockScrapyFails`)."""
    return (
        W3LIB_DECODES_THE_STANDARD
        and body[-1:] in _LAST_OF_META
        and body[-5:].lower() == b"<meta"
    )


_LAST_OF_META = (b"a", b"A")


def _leading_meta_outcome(plan: _Plan, body: bytes) -> _Outcome | None:
    """The outcome where a leading ``<meta>`` decides (sniffing's
    :func:`~scrapy_charset.sniffing.sniff.leading_meta`, in the first 4,096 bytes: no BOM,
    no charset in the header, ``plan.reads_meta``) and stock Scrapy reads the same
    ``<meta>`` (where it has no charset in the header either); ``None`` where either is
    not so."""
    head, remembered = plan.last_meta[0]
    if head and body.startswith(head):
        return remembered
    found = leading_meta(body, _W3LIB_LIMIT)
    if found is None:
        return None
    decision, start, end = found
    stock: str | None  # stock Scrapy's codec (from w3lib 2.6 on), else resolved from ``read``
    if W3LIB_DECODES_THE_STANDARD:
        # w3lib's scan (a browser's, late <meta> included) depends on no byte after the one
        # it stops at: where it finds a charset in ``body[:end]``, the same as in ``body``
        # (and in any body starting with these bytes).
        stock = html_body_declared_encoding(body[:end])
        if stock is None:
            return None
        read = "=" + stock  # (a codec, told apart from a label in the key)
    else:
        # (w3lib's reading ends at the first ">" after ``start``: within ``body[:end]``.)
        label = _w3lib_plain_meta(body, start)
        if label is None:
            return None
        stock, read = None, label
    # Cached by what stock Scrapy reads, the label and the source (META or LATE_META): a
    # crawl meets few (and a Decision's hash is Python code).
    key = (decision.label, decision.source is Source.LATE_META, read)
    outcome = _META_OUTCOMES.get(key)
    if outcome is None:
        if stock is None:
            stock = _resolve_label(read)
        if stock is None:
            return None
        if len(_META_OUTCOMES) >= _PLANS:
            _META_OUTCOMES.clear()
        outcome = _META_OUTCOMES[key] = _outcome(decision, codec_name(stock))
    plan.last_meta[0] = (body[:end], outcome)
    return outcome


_META_OUTCOMES: dict[tuple[str | None, bool, str], _Outcome] = {}


def _xml_declaration_outcome(body: bytes, content_type: list[bytes]) -> _Outcome | None:
    """The outcome for an XML body starting with an XML declaration (``<?xml``, ending at
    the first ``>`` in its first 1,024 bytes, with no ``<`` in it) where stock Scrapy reads
    that declaration's encoding (where neither header has a charset: ``plan.reads_meta``);
    cached by the declaration's bytes: sniffing's "get an XML encoding" reads nothing after
    them, and w3lib's scan matches them first (its XML declaration ends at the first ``<``
    or ``>``) and reads nothing after them when it finds a label there. ``None`` otherwise
    (a UTF-16 declaration, none, w3lib reading no label or one it does not know)."""
    if not body.startswith(b"<?xml"):
        return None
    end = body.find(b">", 5, PRESCAN_LIMIT) + 1
    if end <= 0:
        return None
    declaration = body[:end]
    outcome = _XML_OUTCOMES.get(declaration, _UNPLANNED)
    if outcome is _UNPLANNED:
        outcome = None
        # (With a "<" inside, w3lib's declaration ends there and its scan goes on.)
        if declaration.find(b"<", 1) < 0:
            stock = html_body_declared_encoding(declaration)
            if stock is not None:
                decision = sniff_xml(declaration, content_type or None)
                outcome = _outcome(decision, codec_name(stock))
        if len(_XML_OUTCOMES) >= _PLANS:
            _XML_OUTCOMES.clear()
        _XML_OUTCOMES[declaration] = outcome
    return outcome


_XML_OUTCOMES: dict[bytes, _Outcome | None] = {}


def _plain_ascii_outcome(body: bytes) -> _Outcome | None:
    """The outcome for an HTML body of ASCII bytes declaring nothing (where the header names
    no charset: ``plan.reads_meta``; no BOM is ASCII): windows-1252 by default, as the
    general rules decide pure ASCII whatever the TLD and detector, with the text stock Scrapy
    reads too (its ASCII codec). ``None`` where the body could declare or be detected
    otherwise: a byte above 0x7F, an ESC (ISO-2022-JP), a NUL (UTF-16), ``charset`` or
    ``encoding`` where Chromium's scan or w3lib reads, an XML declaration (``<?``, or ``<<``,
    a UTF-16 one's ASCII bytes)."""
    if not is_ascii(body) or body.find(b"\x1b") >= 0 or body.find(b"\x00") >= 0:
        return None
    if body[1:2] in _DECLARATION_STARTS or holds_word(body, b"charset", LATE_META_LIMIT):
        return None
    if holds_word(body, b"encoding", _W3LIB_LIMIT):
        return None
    return _ascii_outcome()


@cache
def _ascii_outcome() -> _Outcome:
    # The general rules' decision on one such body: the same for all.
    return _outcome(sniff(b"<p>"), codec_name(_stock_ascii_codec()))


_DECLARATION_STARTS = frozenset((b"?", b"<"))
_W3LIB_LIMIT = 4096  # w3lib reads a declaration in the body's first 4,096 bytes


# The standard's BOMs by their first byte (each BOM's is its own): the BOM, its encoding (as
# bom_sniff reads it) and the codec stock Scrapy (w3lib) reads it as, Python's for the text.
_BOMS = {
    b"\xef": (b"\xef\xbb\xbf", UTF_8, "utf-8"),
    b"\xfe": (b"\xfe\xff", UTF_16BE, "utf-16-be"),
    b"\xff": (b"\xff\xfe", UTF_16LE, "utf-16-le"),
}
_UTF_32BE_BOM = b"\x00\x00\xfe\xff"  # which w3lib also reads (FF FE 00 00 starts as UTF-16LE's)


def _decision_keys(decision: Decision) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stats keys ``decision`` counts: its source and encoding (before
    ``charset/changed`` and ``charset/replacement_char``), then those of its own:
    ``charset/forced``, ``charset/conflict``, ``charset/unknown_label``."""
    name = decision.encoding.name
    encoding_key = _ENCODING_KEYS.get(name) or f"charset/encoding/{name}"
    counted = (_SOURCE_KEYS[decision.source], encoding_key)
    own: list[str] = []
    # A forced encoding overrules the document on purpose: that is no conflict.
    forced = decision.source is Source.FORCED
    if forced:
        own.append("charset/forced")
    if decision.overridden:
        losers = [d for d in decision.overridden if d.encoding is not None]
        if not forced and any(d.encoding != decision.encoding for d in losers):
            own.append("charset/conflict")
        if len(losers) != len(decision.overridden):
            own.append("charset/unknown_label")
    return counted, tuple(own)


def _changed(body: bytes, content_type: bytes | None, text: str, decision: Decision) -> bool | None:
    # A statistic is never the reason a response is not taken over.
    try:
        return stock_text_differs(body, content_type, text, decision)
    except Exception:
        return None


def _truth(value: Any) -> bool:
    """``bool(value)``; a value without a truth value (``bool()`` raises, as for a numpy array
    of several elements) raises a ``TypeError`` that names the problem."""
    try:
        return bool(value)
    except Exception as exc:
        raise TypeError(
            f"the truth value of {type(value).__name__} object is ambiguous: {exc}"
        ) from exc


def _given_encoding(response: Response, label: Any) -> Any:
    """The encoding given to the response by whoever built it (``encoding=``, ``label``, not
    ``None``), ``None`` for one that is only stock Scrapy's guess stored by its HTTP cache."""
    return None if _pinned_by_cache(response, label) else label


def stats_counter(stats: StatsCollector) -> Callable[..., None]:
    """``stats.inc_value`` for each key it is called with (``inc("a", "b")``): where it is
    Scrapy's own ``StatsCollector.inc_value``, the same increments made on the collector's
    dict directly. Scrapy 2.19's collectors route
    every attribute read through a ``__getattribute__`` written in Python, which raises and
    catches an exception per read, and every call through a check for a deprecated argument:
    about 14,000 instructions per key, more than the rest of the middleware's own work on a
    response. Any other ``inc_value`` (``DummyStatsCollector``, a collector writing to
    Redis) is called as it is."""
    # Imported here, not with the module: each crawler imports it anyway when it makes its
    # stats collector, and importing the middleware alone need not.
    from scrapy.statscollectors import StatsCollector

    if getattr(type(stats), "inc_value", None) is not StatsCollector.inc_value:
        return _each(stats.inc_value)
    # The collector's own attributes, where its _stats is read from (no class attribute of
    # that name, such as a property, stands before them): read there each time, as
    # set_stats() replaces the dict, without object.__getattribute__'s call.
    try:
        attributes = object.__getattribute__(stats, "__dict__")
    except AttributeError:
        attributes = None
    if (
        not isinstance(attributes, dict)
        or not isinstance(attributes.get("_stats"), dict)
        or hasattr(type(stats), "_stats")
    ):
        return _each(stats.inc_value)

    def inc(*keys: str) -> None:
        values = attributes["_stats"]
        for key in keys:
            values[key] = values.get(key, 0) + 1

    return inc


def _each(inc_value: Callable[[str], None]) -> Callable[..., None]:
    def inc(*keys: str) -> None:
        for key in keys:
            inc_value(key)

    return inc


def _pinned_by_cache(response: Response, label: Any) -> bool:
    """Whether the encoding of a cached response is only stock Scrapy's own guess, which
    Scrapy 2.19's HTTP cache stores with every response (``to_dict()``): a fresh download of
    the same page would have had none."""
    if "cached" not in response.flags:
        return False
    try:
        stock = stock_scrapy_codec(response.body, response.headers.get(b"Content-Type"))
    except StockScrapyFails:  # stock Scrapy has no guess of its own to have stored
        return False
    if stock is None:  # stock Scrapy would have guessed with its detector
        return True
    try:
        return codec_name(resolve_encoding(label) or label) == stock
    except (LookupError, TypeError, ValueError):
        return False


def _lookup_label(label: Any) -> Encoding | None:
    if isinstance(label, (str, bytes)):
        return lookup(label)
    return None


def stock_scrapy_codec(
    body: bytes, content_type: bytes | None, *, valid_utf8: bool | None = None
) -> str | None:
    """The codec stock Scrapy's ``TextResponse`` would decode ``body`` with.

    Same order as Scrapy: BOM, Content-Type charset, declaration in the body, then ASCII
    (read as cp1252) or UTF-8. ``None`` where Scrapy would ask charset-normalizer, or would
    check UTF-8 and ``valid_utf8`` (what the caller knows) is ``None``: re-decoding the body
    only for a statistic would cost as much as the decoding itself.
    """
    codec = (
        # (From w3lib 2.6 on, a UTF-16LE XML declaration without a BOM, a NUL second, too.)
        ((body[:1] in _BOM_STARTS or body[1:2] == b"\x00") and read_bom(body)[0])
        or _stock_header_codec(content_type or b"")
        or _stock_body_codec(body)
    )
    if codec is None:
        if is_ascii(body):
            codec = _stock_ascii_codec()
        elif valid_utf8:
            codec = "utf-8"
        else:
            return None
    return codec_name(codec)


_BOM_STARTS = (b"\xef", b"\xfe", b"\xff", b"\x00")  # the first bytes of w3lib's BOMs


@cache
def _stock_ascii_codec() -> str | None:
    """What stock Scrapy uses for ASCII-only bodies; asked on first use, not at import (the
    codec lookup imports ``encodings.cp1252``)."""
    return resolve_encoding("ascii")


def _stock_body_codec(body: bytes) -> str | None:
    if W3LIB_DECODES_THE_STANDARD:  # a browser's scan, late <meta> included, in compiled code
        return html_body_declared_encoding(body)
    # w3lib reads a <meta> charset or an XML declaration's encoding in the first 4,096 bytes:
    # without "charset" or "encoding" there, it finds none (its regular expressions cost more).
    if not (holds_word(body, b"charset", 4096) or holds_word(body, b"encoding", 4096)):
        return None
    return html_body_declared_encoding(body)


@lru_cache(maxsize=256)  # labels of at most 64 characters (_PLAIN_META)
def _resolve_label(label: str) -> str | None:
    return resolve_encoding(label)


def _any_case(word: bytes) -> bytes:
    """A pattern for ``word`` in any ASCII letter case (spelled out: cheaper than re.I)."""
    return b"".join(
        b"[%c%c]" % (c, c ^ 0x20) if 0x61 <= c <= 0x7A else re.escape(bytes((c,))) for c in word
    )


# A <meta> declaring a charset in its plainest spellings, which every w3lib (2.1 on) reads
# as the label it quotes: <meta charset="..."> and <meta http-equiv="Content-Type"
# content="text/html; charset=...">, the label ending the value. Compiled on first use (about
# 1 ms): only pages with a leading <meta> need it, for the charset/changed statistic.
_WS, _LABEL = rb"[ \t\n\r]", rb"([A-Za-z0-9_-]{1,64})"
_PLAIN_META = lazy_compile(
    rb"<%s%s+(?:%s=([\"'])%s\1|%s=([\"'])%s\3%s+%s=([\"'])%s;%s*%s=%s\4)%s*/?>"
    % (
        _any_case(b"meta"), _WS,
        _any_case(b"charset"), _LABEL,
        _any_case(b"http-equiv"), _any_case(b"content-type"), _WS,
        _any_case(b"content"), _any_case(b"text/html"), _WS, _any_case(b"charset"), _LABEL,
        _WS,
    )
)  # fmt: skip


def _w3lib_plain_meta(body: bytes, start: int) -> str | None:
    """The label w3lib reads from ``body`` (in its first 4,096 bytes) where the first thing
    its scan can stop at is a plain ``<meta>`` (``_PLAIN_META``) at ``start``, found without
    its scan (which costs more than the rest of the statistic); ``None``: not that case.
    Before it must be nothing w3lib's scan could stop at or read instead: a comment, an XML
    declaration, another ``<meta>`` (also ``< meta``), the ``<body>`` tag."""
    if _w3lib_stops_before(body, start):
        return None
    match = _PLAIN_META.match(body, start, _W3LIB_LIMIT)
    if match is None:
        return None
    return (match.group(2) or match.group(5)).decode("ascii")


def _w3lib_stops_before(body: bytes, end: int) -> bool:
    """Whether ``body[:end]`` holds, in any letter case, something w3lib's scan could stop at
    or read: a comment, an XML declaration, a ``<meta>`` (also ``< meta``), ``<body>``."""
    # (Compiled word searches, not a lowered copy searched four times: a <meta> may come
    # after kilobytes of inline script.)
    if holds_word(body, b"meta", end) or holds_word(body, b"body", end):
        return True
    # "<!--" and "?xml" by one-byte searches (memchr) for their "!" and "?", of which a <head>
    # holds few (a DOCTYPE's "!"): CPython's search for four bytes costs ~0.7 ns a byte.
    bang = body.find(b"!", 0, end)
    if bang >= 0 and body.find(b"!", bang + 1, end) >= 0:  # several: the search after all
        if body.find(b"<!--", 0, end) >= 0:
            return True
    elif bang > 0 and body.startswith(b"<!--", bang - 1, end):
        return True
    return (
        body.find(b"?", 0, end) >= 0
        and holds_word(body, b"xml", end)
        and body[:end].lower().find(b"?xml") >= 0
    )


def _stock_header_codec(content_type: bytes) -> str | None:
    if len(content_type) <= 256:
        return _cached_stock_header_codec(content_type)
    if len(content_type) <= LONG_CACHED_LENGTH:  # (a server sending one odd header again)
        return _long_stock_header_codec(content_type)
    return _w3lib_header_codec(content_type)


def _w3lib_header_codec(content_type: bytes) -> str | None:
    """w3lib's ``http_content_type_encoding`` of ``content_type``, asked of the part that
    decides it only."""
    deciding = _w3lib_deciding_part(content_type)
    if deciding is None:
        return None
    return http_content_type_encoding(deciding.decode("latin-1"))


_cached_stock_header_codec = lru_cache(maxsize=256)(_w3lib_header_codec)  # few distinct
_long_stock_header_codec = lru_cache(maxsize=16)(_w3lib_header_codec)


def _w3lib_deciding_part(content_type: bytes) -> bytes | None:
    r"""The part of a ``Content-Type`` value that w3lib's ``http_content_type_encoding`` reads
    the same charset in as in the whole (``None``: it reads none), found by two searches:
    the whole header's parse again, for a statistic, would cost as much as our own reading
    (a hostile header holds thousands of parameters).

    Every w3lib reads ``charset=`` in any letter case (2.1 to 2.4 the first one followed by
    a label, ``[\w-]+``; 2.5 the first one after the start or a ``;`` and HTTP tab or space,
    a label quoted or not, ending at whitespace, ``;`` or ``,``, and after a ``"`` the
    parameters walked from the start, none holding a quote before the first): none
    without one. With no ``"`` before the first, the ``;`` and spaces before it are all
    that counts before it (and the character before them: no reading starts at it); with
    no other one, the run of label and quote characters after it and the character ending
    that run are all that counts after it."""
    lowered = content_type.lower()
    first = lowered.find(b"charset=")
    if first < 0:
        return None
    if content_type.find(b'"', 0, first) >= 0:
        return content_type
    start = first
    while start > 0 and content_type[start - 1] in b" \t":
        start -= 1
    start = max(start - 1, 0)  # the ";", or a character that starts no reading
    value = first + 8
    window = content_type[value : value + _W3LIB_RUN_LIMIT].decode("latin-1")
    run = _W3LIB_VALUE_RUN.match(window).end()  # type: ignore[union-attr]
    # Several, or a label run past the window (read by w3lib's scan as it is): the rest.
    if run == _W3LIB_RUN_LIMIT or lowered.find(b"charset=", first + 1) >= 0:
        return content_type[start:]
    return content_type[start : value + run + 1]


# What any w3lib's header charset is made of (its label characters and a quote), read as it
# reads the header: latin-1 text, so that \w is Unicode's; sought this far.
_W3LIB_VALUE_RUN = re.compile(r'[\w"-]*')
_W3LIB_RUN_LIMIT = 256


def stock_text_differs(
    body: bytes, content_type: bytes | None, text: str, decision: Decision
) -> bool | None:
    """Whether stock Scrapy would have decoded ``body`` otherwise than as ``text`` (the
    browser's, decided by ``decision``); ``None``: unknown.

    Judged from the codecs and the bytes, never by decoding again. Different: when stock
    Scrapy's codec cannot decode bytes to text at all (``rot13``, ``base64``, ``undefined``:
    its ``.text`` raises); for two single-byte tables (the same codec or not), exactly when
    the body holds a byte they map differently; for the same multi-byte codec, when the body
    holds a sequence the swept tables list as decoded otherwise by Python's codec (unknown if
    the text holds U+FFFD: error recovery may differ); for other codecs, unless the body is
    ASCII and both codecs are ASCII-compatible (unknown if the text holds U+FFFD).
    """
    try:
        stock = stock_scrapy_codec(body, content_type, valid_utf8=_valid_utf8(text, decision))
    except StockScrapyFails:
        return True  # stock Scrapy's .text raises: the page's text is the plugin's alone
    if stock is None:
        return None
    return _differs(_comparison(decision.encoding, stock), body, text)


def _differs(comparison: tuple[str, Any], body: bytes, text: str) -> bool | None:
    """Whether ``body``, decoded as ``text``, reads otherwise with stock Scrapy's codec, as
    ``comparison`` (from :func:`_comparison`) says to judge it."""
    test, wanted = comparison
    if test is _SAME or test is _DIFFERENT:
        return test is _DIFFERENT
    if test is _BYTES:  # two single-byte tables: exactly when the body holds a byte they differ on
        # (Sorted: where the first is above ASCII, all are, and an ASCII body holds none;
        # whether it is ASCII is mostly known already, where a search costs a pass.)
        if not wanted or (wanted[0][0] >= 0x80 and is_ascii(body)):
            return False
        return _holds_any(body, wanted)
    if test is _ASCII_SAME and is_ascii(body):
        return False
    if "\ufffd" in text:
        return None  # malformed input: the error recovery may or may not differ
    if test is _SEQUENCES:
        return _holds_any(body, wanted)
    return True


# How _comparison says two codecs' readings of a body differ.
_SAME, _DIFFERENT, _BYTES, _SEQUENCES = "same", "different", "bytes", "sequences"
_ASCII_SAME, _OTHER = "ascii", "other"


@cache
def _comparison(ours: Encoding, stock: str) -> tuple[str, Any]:
    """How stock Scrapy's ``stock`` codec and the standard's decoder for ``ours`` differ,
    with what the test needs: never (``_SAME``); always, where ``stock`` cannot decode bytes
    to text at all (``_DIFFERENT``); on the bytes given (two single-byte tables,
    ``_BYTES``); on the byte sequences given, where the same multi-byte codec is inexact
    (``_SEQUENCES``); unless the body is ASCII and both are ASCII-compatible
    (``_ASCII_SAME``); otherwise always (``_OTHER``). With ``_SEQUENCES``, ``_ASCII_SAME`` and
    ``_OTHER``, a difference hidden by U+FFFD in the text is unknown.

    From w3lib 2.6 on, stock Scrapy decodes with the standard's decoder of the encoding its
    codec name stands for (a label of it, or its Python codec: as an explicit ``encoding=``
    names one)."""
    theirs = _explicit_encoding(stock) if W3LIB_DECODES_THE_STANDARD else None
    if theirs is ours:
        return _SAME, None
    if theirs is not None:
        ours_table, their_table = _single_byte_table(ours), _single_byte_table(theirs)
        if ours_table is not None and their_table is not None:
            return _BYTES, _differing_bytes(ours_table, their_table)
        if ours in _ASCII_COMPATIBLE and theirs in _ASCII_COMPATIBLE:
            return _ASCII_SAME, None
        return _OTHER, None
    if not _decodes_text(stock):
        return _DIFFERENT, None
    ours_table, stock_table = _single_byte_table(ours), _python_table(stock)
    if ours_table is not None and stock_table is not None:
        return _BYTES, _differing_bytes(ours_table, stock_table)
    if stock == codec_name(_nearest_codec(ours)):
        if ours.python_codec_exact:
            return _SAME, None
        return _SEQUENCES, _inexact_sequences(ours)
    if _ascii_compatible(stock) and ours in _ASCII_COMPATIBLE:
        return _ASCII_SAME, None
    return _OTHER, None


def _valid_utf8(text: str, decision: Decision) -> bool | None:
    """Whether the body is (strictly) valid UTF-8, where sniffing already found out: HTML
    and plain-text sniffing check undeclared bodies before guessing a legacy encoding."""
    if decision.source is Source.UTF8:
        # Sniffing also takes a body cut inside the last character, and text with a few
        # invalid bytes, for UTF-8 (a U+FFFD: valid or not, unknown without decoding again).
        return None if "\ufffd" in text else True
    # (Not where a label no browser knows was ignored: no body is checked for UTF-8 then.)
    if decision.source in _GUESSED and decision.encoding in _LEGACY and not decision.overridden:
        return False
    return None


_GUESSED = frozenset((Source.DETECTION, Source.TLD, Source.DEFAULT))
_LEGACY = frozenset(e for e in ALL_ENCODINGS if e.name not in ("UTF-8", "UTF-16BE", "UTF-16LE"))


@cache
def _decodes_text(codec: str) -> bool:
    """Whether Python's ``codec`` decodes bytes to text with errors="replace" (not rot13,
    base64, zlib, undefined, idna on arbitrary bytes, ...)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unicode_escape warns about "\]"
            for sample in (b"<html>", bytes(range(256)), b"\xff\xfe\x00\xd8"):
                if not isinstance(sample.decode(codec, "replace"), str):
                    return False
    except Exception:  # LookupError: not a text encoding; UnicodeError: refuses "replace"
        return False
    return True


@cache
def _python_table(codec: str) -> str | None:
    """The 256 characters Python's single-byte ``codec`` decodes the bytes to, else None."""
    info = codecs.lookup(codec)
    if info.name == "iso8859-1":
        return "".join(map(chr, range(256)))
    module = sys.modules.get(type(getattr(info.decode, "__self__", None)).__module__)
    table = getattr(module, "decoding_table", None)
    if not isinstance(table, str) or len(table) != 256:
        return None
    return table.replace("\ufffe", "\ufffd")  # undefined bytes: U+FFFD with "replace"


def _single_byte_table(encoding: Encoding) -> str | None:
    if encoding.heading != _SINGLE_BYTE and encoding is not X_USER_DEFINED:
        return None
    return charmap_table(encoding.name)


@cache
def _differing_bytes(ours: str, stock: str) -> tuple[bytes, ...]:
    """The bytes two tables map differently."""
    return tuple(bytes((b,)) for b in range(256) if ours[b] != stock[b])


def _holds_any(body: bytes, wanted: tuple[bytes, ...]) -> bool:
    if len(wanted) <= 4:  # a few: a fast find each
        return any(string in body for string in wanted)
    return holds_any(body, wanted)  # many: one pass (one search each would cost more)


def _nearest_codec(encoding: Encoding) -> str:
    entry = FAST_CJK.get(encoding.name)
    return entry[0] if entry is not None else encoding.python_codec


@cache
def _inexact_sequences(encoding: Encoding) -> tuple[bytes, ...]:
    """Byte sequences the nearest Python codec decodes otherwise than the standard (from the
    swept tables); every non-ASCII byte for an encoding without such tables."""
    entry = FAST_CJK.get(encoding.name)
    if entry is None:
        return tuple(bytes((b,)) for b in range(0x80, 0x100))
    tables = entry[2:]  # the fixed characters' sequences, the suspects' sequences
    return tuple(sorted({seq for table in tables for seqs in table.values() for seq in seqs}))


@cache
def _ascii_compatible(codec: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unicode_escape warns about "\]"
        return bytes(range(128)).decode(codec, "replace") == _ASCII


_ASCII = "".join(map(chr, range(128)))
ISO_2022_JP = get_encoding("ISO-2022-JP")
_SINGLE_BYTE = "Legacy single-byte encodings"  # the Encoding Standard's heading
_ASCII_COMPATIBLE = frozenset(
    e for e in ALL_ENCODINGS if e not in (UTF_16BE, UTF_16LE, REPLACEMENT, ISO_2022_JP)
)
