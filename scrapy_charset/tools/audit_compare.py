"""One page's audit record: the browser's decision and text, and what each common default makes
of the same bytes (requests' ``.text``, Scrapy's ``HtmlResponse.text``, a plain UTF-8 decode)."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..sniffing.decision import Decision, Declaration, Source
from ..sniffing.late_meta import scan_meta_like_chromium
from ..sniffing.prescan import PRESCAN_LIMIT
from .audit_decoding import MiddlewareDecoder, NotHandled
from .audit_inputs import KIND_FILE, Page
from .audit_severity import severity

DEFAULTS: tuple[str, ...] = ("requests", "scrapy", "utf8")
DEFAULT_TITLES = {
    "requests": "requests .text",
    "scrapy": "Scrapy .text",
    "utf8": 'decode("utf-8")',
}
SNIPPET_BEFORE = 20
SNIPPET_AFTER = 40
# Used for Scrapy's response when a page has no usable URL; the URL never affects decoding.
PLACEHOLDER_URL = "http://audit.invalid/"

_BOMS = ((b"\xef\xbb\xbf", "UTF-8"), (b"\xfe\xff", "UTF-16BE"), (b"\xff\xfe", "UTF-16LE"))

# Called as decoder(body, content_types, url=..., status=..., name=...); raises NotHandled for a
# page the middleware would pass on untouched.
BrowserDecoder = Callable[..., "tuple[str, Decision]"]


@dataclass
class DefaultResult:
    """What one default decoder made of a page."""

    encoding: str | None  # the encoding it used, as it names it
    same: bool  # same text as the browser
    diff: dict[str, Any] | None = None  # first difference: offset and both texts around it
    chars: int = 0  # characters of the browser's text that differ
    share: float = 0.0  # chars / characters of the browser's text
    kind: str | None = None  # class of difference (audit_severity.CLASSES); None when same


@dataclass
class Record:
    """Everything the audit reports about one page; with ``error`` or ``skipped`` set, the
    page was not decoded and the decoding fields stay ``None``."""

    kind: str
    origin: str
    url: str | None
    host: str
    tld: str
    status: int | None
    content_type: str | None
    bytes: int
    error: str | None = None
    skipped: str | None = None
    encoding: str | None = None
    source: str | None = None
    label: str | None = None
    confident: bool | None = None
    overridden: list[dict[str, str | None]] = field(default_factory=list)
    late_meta: bool | None = None
    conflict: bool | None = None
    bom: str | None = None
    replacement_chars: int | None = None
    not_utf8: bool | None = None
    ascii: bool | None = None  # pure ASCII: the same text in UTF-8 and in the encoding used
    text_chars: int | None = None  # characters of the browser's text
    declared: str | None = None  # the encoding the page declares (BOM, header, <meta>, XML)
    # Every text at the first place a default differs (garbled pages only), for the report.
    sample: dict[str, Any] | None = None
    defaults: dict[str, DefaultResult | None] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def audited(self) -> bool:
        return self.error is None and self.skipped is None

    def garbled(self, default: str) -> bool:
        result = self.defaults.get(default)
        return result is not None and not result.same

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready form: one ``<default>_encoding/_same/_diff`` trio per default."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "origin": self.origin,
            "url": self.url,
            "host": self.host,
            "tld": self.tld,
            "status": self.status,
            "content_type": self.content_type,
            "bytes": self.bytes,
            "error": self.error,
            "skipped": self.skipped,
            "encoding": self.encoding,
            "source": self.source,
            "label": self.label,
            "confident": self.confident,
            "overridden": self.overridden,
            "late_meta": self.late_meta,
            "conflict": self.conflict,
            "bom": self.bom,
            "replacement_chars": self.replacement_chars,
            "not_utf8": self.not_utf8,
            "ascii": self.ascii,
            "text_chars": self.text_chars,
            "declared": self.declared,
        }
        for name in DEFAULTS:
            result = self.defaults.get(name)
            data[f"{name}_encoding"] = result.encoding if result else None
            data[f"{name}_same"] = result.same if result else None
            data[f"{name}_diff"] = result.diff if result else None
            data[f"{name}_chars"] = result.chars if result else None
            data[f"{name}_share"] = round(result.share, 6) if result else None
            data[f"{name}_class"] = result.kind if result else None
        return data


# -- URL fields ---------------------------------------------------------------------------------


def host_of(url: str | None) -> str:
    if not url:
        return ""
    try:
        return (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""


def tld_of(host: str) -> str:
    """The last label of the host name; ``(ip)`` for an address, ``(none)`` without a host,
    ``(invalid)`` for what cannot be a host name."""
    if not host:
        return "(none)"
    if any(c.isspace() or c in "<>\"{}|\\^`" for c in host):
        return "(invalid)"
    try:
        ipaddress.ip_address(host)
        return "(ip)"
    except ValueError:
        return host.rsplit(".", 1)[-1]


# -- text comparison ----------------------------------------------------------------------------


def first_difference(expected: str, got: str) -> int:
    """Index of the first differing character (``min(len)`` when one is a prefix of the other).

    Compares big slices first so long equal prefixes cost C-speed comparisons only.
    """
    end = min(len(expected), len(got))
    start, step = 0, 4096
    while start < end:
        stop = min(start + step, end)
        if expected[start:stop] != got[start:stop]:
            if stop - start <= 64:
                break
            step = max(64, (stop - start) // 8)
            continue
        start = stop
    while start < end and expected[start] == got[start]:
        start += 1
    return start


def describe_difference(browser: str, got: str) -> dict[str, Any]:
    at = first_difference(browser, got)
    begin = max(0, at - SNIPPET_BEFORE)
    return {
        "offset": at,
        "browser": browser[begin : at + SNIPPET_AFTER],
        "got": got[begin : at + SNIPPET_AFTER],
    }


def compare(browser: str, encoding: str | None, text: str) -> DefaultResult:
    if text == browser:
        return DefaultResult(encoding, True)
    found = severity(browser, text)
    return DefaultResult(
        encoding, False, describe_difference(browser, text), found.chars, found.share, found.kind
    )


# -- the defaults, reproduced without a network call -------------------------------------------


@functools.lru_cache(maxsize=1024)
def requests_header_encoding(content_type: str | None) -> str | None:
    """requests' ``get_encoding_from_headers`` for one (joined) Content-Type value."""
    from requests.structures import CaseInsensitiveDict
    from requests.utils import get_encoding_from_headers

    headers: CaseInsensitiveDict[str] = CaseInsensitiveDict()
    if content_type is not None:
        headers["Content-Type"] = content_type
    return get_encoding_from_headers(headers)


def requests_text(body: bytes, content_types: Sequence[str]) -> tuple[str | None, str]:
    """``requests.get(...).text`` for these bytes and headers: the header's charset (ISO-8859-1
    for ``text/*`` without one), else ``apparent_encoding`` (charset detection)."""
    from requests.models import Response

    # urllib3 joins repeated headers with ", " before requests sees them.
    joined = ", ".join(content_types) if content_types else None
    response = Response()
    response._content = body
    response._content_consumed = True
    encoding = requests_header_encoding(joined)
    if encoding is None and body:
        # What .text itself does when no header encoding; fixed here so it is computed once.
        encoding = response.apparent_encoding
    response.encoding = encoding
    return encoding, response.text


def scrapy_text(body: bytes, content_types: Sequence[str], url: str | None) -> tuple[str, str]:
    """Scrapy's ``HtmlResponse(...).text`` and ``.encoding`` for these bytes and headers."""
    from scrapy.http import HtmlResponse

    # Bytes as received: Scrapy would encode str header values as UTF-8.
    raw = [value.encode("latin-1", "replace") for value in content_types]
    headers = {"Content-Type": raw} if raw else {}
    try:
        response = HtmlResponse(url or PLACEHOLDER_URL, body=body, headers=headers)
    except (ValueError, TypeError):
        response = HtmlResponse(PLACEHOLDER_URL, body=body, headers=headers)
    text = response.text
    return response.encoding, text


def _requests_available() -> bool:
    try:
        import requests  # noqa: F401
    except ImportError:
        return False
    return True


REQUESTS_AVAILABLE = _requests_available()


# -- one page -----------------------------------------------------------------------------------


def bom_of(body: bytes) -> str | None:
    for prefix, name in _BOMS:
        if body.startswith(prefix):
            return name
    return None


def _declaration_dict(declaration: Any) -> dict[str, str | None]:
    encoding = declaration.encoding
    return {
        "source": str(declaration.source),
        "label": declaration.label,
        "encoding": encoding.name if encoding is not None else None,
    }


def default_browser_decoder() -> BrowserDecoder:
    """The middleware with its default settings."""
    return MiddlewareDecoder()


def audit_page(
    page: Page, browser: BrowserDecoder, defaults: Sequence[str] = DEFAULTS
) -> Record:
    """Decode ``page`` as a browser does and as each of ``defaults`` does, and compare."""
    host = host_of(page.url)
    content_type = ", ".join(page.content_types) if page.content_types else None
    record = Record(
        kind=page.kind,
        origin=page.origin,
        url=page.url,
        host=host,
        tld=tld_of(host),
        status=page.status,
        content_type=content_type,
        bytes=len(page.body),
        error=page.error,
        skipped=page.skipped if page.error is None else None,
    )
    if not record.audited:
        return record
    body, content_types = page.body, page.content_types
    name = page.origin if page.kind == KIND_FILE else None
    try:
        text, decision = browser(
            body, content_types or None, url=page.url, status=page.status, name=name
        )
    except NotHandled as exc:  # the crawl would get stock Scrapy's response: nothing to compare
        record.skipped = exc.reason
        return record
    except Exception as exc:  # noqa: BLE001 - reported in the record, the audit goes on
        record.error = f"browser decoding failed: {type(exc).__name__}: {exc}"
        return record
    fill_decision(record, decision, text, body)
    texts: dict[str, str] = {}
    for name in defaults:
        try:
            record.defaults[name], texts[name] = run_default(
                name, body, content_types, page.url, text
            )
        except Exception as exc:  # noqa: BLE001 - a default that crashes garbles the page too
            record.defaults[name] = DefaultResult(
                None, False, {"error": f"{type(exc).__name__}: {exc}"}, kind="mojibake"
            )
    offsets = [
        r.diff["offset"]
        for r in record.defaults.values()
        if r is not None and r.diff is not None and "offset" in r.diff
    ]
    if offsets:
        at = min(offsets)
        begin = max(0, at - SNIPPET_BEFORE)
        record.sample = {"offset": at, "browser": text[begin : at + SNIPPET_AFTER]}
        for name, other in texts.items():
            record.sample[name] = other[begin : at + SNIPPET_AFTER]
    return record


_DECLARING = frozenset(
    {Source.BOM, Source.HEADER, Source.META, Source.LATE_META, Source.XML_DECLARATION}
)


# Rules that decide before any <meta> is read; the Decision then reports only the first 1024
# bytes' declarations, so the audit looks further itself.
_DECIDED_BEFORE_META = frozenset({Source.FORCED, Source.BOM, Source.HEADER})


def fill_decision(record: Record, decision: Decision, text: str, body: bytes) -> None:
    record.encoding = decision.encoding.name
    record.source = str(decision.source)
    record.label = decision.label
    record.confident = decision.confident
    record.overridden = [_declaration_dict(d) for d in decision.overridden]
    late = decision.source == Source.LATE_META or any(
        d.source == Source.LATE_META for d in decision.overridden
    )
    conflict = any(
        d.encoding is not None and d.encoding != decision.encoding for d in decision.overridden
    )
    if decision.source in _DECIDED_BEFORE_META and not any(
        d.source in (Source.META, Source.LATE_META) for d in decision.overridden
    ):
        meta = late_meta_declaration(body)
        if meta is not None:
            late = True
            if meta.encoding is not None and meta.encoding != decision.encoding:
                conflict = True
                record.overridden.append(
                    _declaration_dict(Declaration(Source.LATE_META, meta.label, meta.encoding))
                )
    record.late_meta = late
    record.conflict = conflict
    record.bom = bom_of(body)
    record.replacement_chars = text.count("\ufffd")
    record.text_chars = len(text)
    # Pure ASCII reads the same in UTF-8 and in every ASCII-compatible encoding: it is both.
    record.ascii = body.isascii() and len(text) == len(body) and text.isascii()
    record.not_utf8 = decision.encoding.name != "UTF-8" and not record.ascii
    if decision.source in _DECLARING:
        record.declared = decision.encoding.name
    else:
        named = [d.encoding for d in decision.overridden if d.encoding is not None]
        record.declared = named[0].name if named else "(undeclared)"


def late_meta_declaration(body: bytes) -> Any:
    """The document's ``<meta>`` charset as Chromium finds it, when it ends past 1024 bytes."""
    meta, _ = scan_meta_like_chromium(body)
    if meta is not None and meta.end > PRESCAN_LIMIT:
        return meta
    return None


def run_default(
    name: str, body: bytes, content_types: Sequence[str], url: str | None, browser_text: str
) -> tuple[DefaultResult | None, str]:
    """One default's result (``None`` when it cannot run here: requests not installed) and
    its text."""
    encoding: str | None
    if name == "utf8":
        encoding, text = "utf-8", body.decode("utf-8", "replace")
    elif name == "requests":
        if not REQUESTS_AVAILABLE:
            return None, browser_text
        encoding, text = requests_text(body, content_types)
    elif name == "scrapy":
        encoding, text = scrapy_text(body, content_types, url)
    else:
        raise ValueError(f"unknown default {name!r}")
    return compare(browser_text, encoding, text), text
