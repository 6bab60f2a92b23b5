"""The encoding sniffing algorithm in browser order, with a record of which rule decided.

Order, as measured in Chromium 156 (``tests/data/chromium/FINDINGS.md``): a forced encoding,
the BOM, the ``Content-Type`` charset (all "certain"); then (all "tentative") the first
``<meta>`` charset Chromium's scanner honours — in the first 1,024 bytes, or later while still
in ``<head>`` — else the XML declaration; then statistical detection, the locale default of
the URL's TLD, and windows-1252.

Where Chromium shows mojibake for an undeclared page, the true encoding is chosen instead and
marked by its source: UTF-8, valid or with a few invalid sequences (``Source.UTF8``; Chromium
never detects UTF-8 over HTTP), and, as ``Source.DETECTION``, BOM-less UTF-16 and ISO-2022-JP
(Chromium: windows-1252). A page carrying a label no browser knows is read as Chromium shows
it, mojibake included.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from types import ModuleType

from ..encoding import (
    UTF_8,
    UTF_16BE,
    UTF_16LE,
    WINDOWS_1252,
    Encoding,
    bom_sniff,
    decode,
    lookup,
)
from ..encoding.decoders import decode_after_bom, decode_sniffing_bom
from ..encoding.fast import holds_word, is_ascii
from .content_type import charset_from_content_type
from .decision import Decision, Declaration, Source
from .detect import (
    DEFAULT_DETECTOR,
    Detector,
    fast_path,
    is_mostly_utf8,
)
from .late_meta import _meta_charset, next_meta, scan_meta_like_chromium
from .prescan import (
    PRESCAN_LIMIT,
    get_xml_encoding,
    utf16_xml_declaration,
)
from .tld import tld_default, tld_of

_META = re.compile(rb"<[Mm][Ee][Tt][Aa]")
# How far the in-<head> <meta> scan may look. Chromium has no such bound, but a <head> this
# long is tag soup, not a page: the bound keeps a hostile body's cost per response fixed
# (measured: a <meta> after 200 KB of <script> in <head> is still found).
LATE_META_LIMIT = 256 * 1024
# Stands for the label of a UTF-16 XML declaration, which has none that can be read.
_UTF16_XML = "<?x"
# The second byte of "<?x" in UTF-16 (a set: bytes' "in" first tries the needle as an
# integer, which costs an exception).
_UTF16_XML_SECOND_BYTES = frozenset((b"\x00", b"<"))


def _as_bytes(body: object) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if body is None:
        return b""
    raise TypeError(f"body must be bytes-like, not {type(body).__name__}")


def _resolve_forced(forced: Encoding | str | bytes) -> tuple[str, Encoding | None]:
    if isinstance(forced, Encoding):
        return forced.name, forced
    if isinstance(forced, (bytes, bytearray)):
        forced = bytes(forced).decode("latin-1")
    label = str(forced)
    return label, lookup(label)


def _document_declarations(data: bytes) -> list[Declaration]:
    """The in-document declarations the prescan meets in the first 1,024 bytes, in order:
    the first ``<meta>`` with a known label (and unknown ones before it), else the XML
    declaration."""
    head = data[:PRESCAN_LIMIT]
    found: list[Declaration] = []
    # "<?x" in UTF-16 has a NUL or "<" second (the cheap test first: most pages have neither).
    utf16 = utf16_xml_declaration(head) if head[1:2] in _UTF16_XML_SECOND_BYTES else None
    if utf16 is not None:
        return [Declaration(Source.XML_DECLARATION, _UTF16_XML, utf16)]
    # Chromium's scanner decides (it differs from the spec's prescan on repeated attributes
    # and on <meta> inside raw-text elements); it runs on until it leaves <head>.
    # Every <meta> declaration holds "charset" (the attribute, or the content's parameter) in
    # some letter case: without a "<meta" and a "charset" the scan cannot find one.
    scanned = data[:LATE_META_LIMIT]
    # (The compiled word search first: it is several times cheaper than the pattern's on
    # the many pages that hold neither.)
    if holds_word(scanned, b"charset", LATE_META_LIMIT) and _META.search(scanned):
        meta, ignored = scan_meta_like_chromium(scanned)
    else:
        meta, ignored = None, []
    for declaration in (*ignored, meta):
        if declaration is not None:
            late = declaration.start >= PRESCAN_LIMIT
            source = Source.LATE_META if late else Source.META
            found.append(Declaration(source, declaration.label, declaration.encoding))
    if meta is not None:
        return found
    # Chromium reads the XML declaration up to its ">", even past the first 1,024 bytes.
    xml = get_xml_encoding(scanned) if scanned.startswith(b"<?xml") else None
    if xml is not None:
        found.append(Declaration(Source.XML_DECLARATION, xml[0], xml[1]))
    return found


def leading_meta(data: bytes, limit: int = PRESCAN_LIMIT) -> tuple[Decision, int, int] | None:
    """The first in-document declaration of an HTML ``data`` where the first ``<meta>``
    Chromium's scan meets declares an encoding a browser knows (with its ``charset``
    attribute, or a charset in the ``content`` of an ``http-equiv`` ``content-type``), all
    within the first ``limit`` bytes (at most :data:`LATE_META_LIMIT`): its decision when
    it decides, with the offsets of the ``<meta>``'s ``<`` and past its ``>``; ``None``
    otherwise. Nothing after the ``<meta>`` counts: any ``data`` that starts with the same
    bytes through it gets the same answer.

    Exactly what :func:`_document_declarations` finds first: that ``<meta>``, the only
    declaration it returns, as its scan stops there. Without a BOM or a ``Content-Type``
    charset the general rules (:func:`_tentative`) decide the same; with ``limit`` 1,024 it
    is all a certain decision may override in the document (:func:`_certain`)."""
    if data[1:2] in _UTF16_XML_SECOND_BYTES:  # maybe a UTF-16 XML declaration
        return None
    if not holds_word(data, b"charset", limit):  # the cheap test first
        return None
    # The scan of the first ``limit`` bytes alone: it finds the same <meta> where that one
    # ends in them (a token running past them ends the scan), and it stops there even in a
    # long <head>.
    found = next_meta(data[:limit], 0, True, PRESCAN_LIMIT)
    if found is None:
        return None
    start, end, value, is_content, _ = found
    decision = _meta_decision(value, is_content, start >= PRESCAN_LIMIT)
    return None if decision is None else (decision, start, end)


@lru_cache(maxsize=256)  # a crawl meets few spellings (and an Encoding's hash is Python code)
def _meta_decision(value: bytes, is_content: bool, late: bool) -> Decision | None:
    """The decision of a ``<meta>`` whose ``charset`` (or with ``is_content``, ``content``)
    attribute is ``value``, read as the general rules read it (``late``: past the first
    1,024 bytes, as :func:`_document_declarations` sources it); ``None`` where it declares
    no known encoding (the scan would go on)."""
    declaration = _meta_charset(value, is_content, 0, 0)
    if declaration is None or declaration.encoding is None:
        return None
    source = Source.LATE_META if late else Source.META
    return _plain_decision(declaration.encoding, source, declaration.label, False)


def _decision(
    encoding: Encoding,
    source: Source,
    label: str | None,
    lost: tuple[Declaration, ...],
    confident: bool,
) -> Decision:
    if lost:
        return Decision(encoding, source, label, lost, confident)
    return _plain_decision(encoding, source, label, confident)


@lru_cache(maxsize=1024)
def _plain_decision(
    encoding: Encoding, source: Source, label: str | None, confident: bool
) -> Decision:
    # A decision that overrode nothing: frozen, so one object serves every body it fits.
    return Decision(encoding, source, label, (), confident)


def _lost(declarations: list[Declaration], winner: Encoding) -> tuple[Declaration, ...]:
    # A declaration lost when it named another encoding or one that does not exist.
    return tuple(d for d in declarations if d.encoding is None or d.encoding != winner)


def certain_rules(
    data: bytes, content_type: object, forced: Encoding | str | None, html: bool = False
) -> Decision | list[Declaration]:
    """The rules every browser applies first, for any document: a forced encoding, the BOM,
    then the ``Content-Type`` charset.

    Returns the decision, listing what it overrode (for HTML, also the document's own
    declarations), or, when none applies, the declarations that named no encoding, for the
    document type's own rules to go on from.
    """
    return certain_decision(data, charset_from_content_type(content_type), forced, html)


def certain_decision(
    data: bytes,
    header: tuple[str, Encoding | None] | None,
    forced: Encoding | str | None,
    html: bool = False,
) -> Decision | list[Declaration]:
    """:func:`certain_rules` with the ``Content-Type`` charset already read (``header``, from
    :func:`~.content_type.charset_from_content_type`)."""
    losers: list[Declaration] = []
    if forced is not None:
        label, encoding = _resolve_forced(forced)
        if encoding is not None:
            return _certain(data, encoding, Source.FORCED, label, losers, header, html)
        losers.append(Declaration(Source.FORCED, label, None))
    bom = bom_sniff(data)
    if bom is not None:
        return _certain(data, bom, Source.BOM, None, losers, header, html)
    if header is not None:
        if header[1] is not None:
            return _certain(data, header[1], Source.HEADER, header[0], losers, None, html)
        losers.append(Declaration(Source.HEADER, *header))
    return losers


def may_declare(data: bytes) -> bool:
    """Whether the first 1,024 bytes may hold an in-document declaration: every ``<meta>``
    declaration holds "charset" (in some letter case), and the other two start the document
    (``<?xml``, and ``<?x`` in UTF-16): their second byte is ``?``, a NUL or ``<``. A head
    with none of these declares nothing."""
    return data[1:2] in _DECLARATION_SECOND_BYTES or holds_word(data, b"charset", PRESCAN_LIMIT)


_DECLARATION_SECOND_BYTES = frozenset((b"?", b"\x00", b"<", b""))


def _certain(
    data: bytes,
    encoding: Encoding,
    source: Source,
    label: str | None,
    losers: list[Declaration],
    header: tuple[str, Encoding | None] | None,
    html: bool,
) -> Decision:
    """A certain decision and what it overrode: ``losers``, the header's charset when it did
    not decide, and in HTML the document's declarations that the later rules would have read
    (only in the first 1,024 bytes: a certain decision never waits for a late ``<meta>``;
    none after a UTF-16 BOM, which makes the prescan moot)."""
    others = losers
    if header is not None:
        others = [*others, Declaration(Source.HEADER, *header)]
    if (
        html
        and not (source is Source.BOM and (encoding is UTF_16LE or encoding is UTF_16BE))
        and may_declare(data)
    ):
        in_document = _document_declarations(data[:PRESCAN_LIMIT])
        if in_document:
            others = [*others, *in_document]
    return _decision(encoding, source, label, _lost(others, encoding) if others else (), True)


def sniff(
    body: bytes,
    content_type: object = None,
    *,
    url: str | None = None,
    forced: Encoding | str | None = None,
    detector: Detector | None = DEFAULT_DETECTOR,
    tld_hint: bool = True,
) -> Decision:
    """The encoding a browser uses for the HTML ``body`` and the rule that decided it.

    ``content_type`` is the ``Content-Type`` header: ``None``, ``str``, ``bytes`` or a
    sequence of those (several header values). ``url`` gives the TLD used as a detection hint
    and locale default (unless ``tld_hint`` is false). ``forced`` (an :class:`Encoding` or
    label) wins over everything; an unknown forced label is reported in ``overridden`` and
    ignored. ``detector=None`` turns statistical detection off.
    """
    return sniff_document(
        _as_bytes(body), content_type, url, forced, detector=detector, tld_hint=tld_hint, html=True
    )[0]


def sniff_document(
    data: bytes,
    content_type: object,
    url: str | None,
    forced: Encoding | str | None,
    *,
    detector: Detector | None,
    tld_hint: bool,
    html: bool,
) -> tuple[Decision, str | None]:
    """The decision for an HTML (``html``) or plain-text document, and the text when
    sniffing had to decode the body (valid UTF-8; else ``None``: the text is then
    ``decode_as_decided(data, decision)``)."""
    certain = certain_rules(data, content_type, forced, html)
    if isinstance(certain, Decision):
        return certain, None
    return _tentative(data, certain, url=url, detector=detector, tld_hint=tld_hint, html=html)


def utf8_text(data: bytes) -> str | None:
    """The text of ``data`` if it is valid UTF-8 and not pure ASCII, else ``None``."""
    if is_ascii(data):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _tentative(
    data: bytes,
    losers: list[Declaration],
    *,
    url: str | None,
    detector: Detector | None,
    tld_hint: bool,
    html: bool,
) -> tuple[Decision, str | None]:
    """The rules after the transport layer: for HTML in-document declarations, then guessing
    (plain text has no declarations and skips ``fast_path``); and the text where checking for
    valid UTF-8 already decoded it."""

    def decide(encoding: Encoding, source: Source, label: str | None = None) -> Decision:
        return _decision(encoding, source, label, _lost(losers, encoding), False)

    # In-document declarations: a UTF-16 XML declaration, the first <meta> charset Chromium's
    # scanner honours (unknown labels before it lose), else the XML declaration.
    for declaration in _document_declarations(data) if html else ():
        if declaration.encoding is None:
            losers.append(declaration)
        else:
            label = None if declaration.label == _UTF16_XML else declaration.label
            return decide(declaration.encoding, declaration.source, label), None

    if html and any(_names_unknown_encoding(d) for d in losers):
        # The page names an encoding no browser knows: read as Chromium reads it.
        return decide(*_as_chromium_reads(data, url, detector, tld_hint)), None

    # Valid UTF-8 is decided here, with its text, unless in HTML a NUL in the start may make
    # it BOM-less UTF-16 (fast_path's first rule); fast_path settles everything else cheap.
    text = utf8_text(data) if not (html and b"\x00" in data[:1024]) else None
    if text is not None:
        return decide(UTF_8, Source.UTF8), text
    if html:
        # (fast_path checks UTF-8 again: it also takes a body cut inside its last character,
        # which the strict decode above refuses.)
        settled, quick = fast_path(data)
        if quick is UTF_8:
            return decide(UTF_8, Source.UTF8), None
        if quick is not None:
            return decide(quick, Source.DETECTION), None
        if settled:
            # Pure ASCII: Chromium uses windows-1252 whatever the TLD (measured on .jp, .ru).
            return decide(WINDOWS_1252, Source.DEFAULT), None
    elif is_mostly_utf8(data):
        return decide(UTF_8, Source.UTF8), None
    tld = tld_of(url) if tld_hint else None
    detected = _run_detector(detector, data, tld)
    if detected is not None:
        return decide(detected, Source.DETECTION), None

    default = tld_default(tld)
    if default is not None:
        return decide(default, Source.TLD), None
    return decide(WINDOWS_1252, Source.DEFAULT), None


# Where a declaration the page carries comes from (not the user's forced encoding).
_PAGE_SOURCES = (Source.HEADER, Source.META, Source.LATE_META, Source.XML_DECLARATION)
_HTML_WHITESPACE = " \t\n\f\r"


def _names_unknown_encoding(declaration: Declaration) -> bool:
    """Whether the page's own ``declaration`` names an encoding no browser knows. An empty
    label (``charset=""``, ``<meta charset="">``) names none: it counts as no label, as
    ``charset=`` does."""
    return (
        declaration.encoding is None
        and declaration.source in _PAGE_SOURCES
        and bool(declaration.label.strip(_HTML_WHITESPACE))
    )


def _as_chromium_reads(
    data: bytes,
    url: str | None,
    detector: Detector | None,
    tld_hint: bool,
) -> tuple[Encoding, Source]:
    """The encoding and source for a page labelled with a name no browser knows
    (:func:`.unknown_labels.as_chromium_shows`)."""
    settled, quick = fast_path(data)
    if settled and quick is None:  # pure ASCII
        return WINDOWS_1252, Source.DEFAULT
    tld = tld_of(url) if tld_hint else None
    detected = quick if settled else _run_detector(detector, data, tld)
    return _unknown_labels().as_chromium_shows(data, tld, detected, detector is not None)


@cache
def _unknown_labels() -> ModuleType:
    """:mod:`.unknown_labels`, imported on first use: only pages labelled with an unknown name
    need it (and the letter statistics it loads). (An import statement in the function that
    uses it would cost more than a microsecond a page.)"""
    from . import unknown_labels

    return unknown_labels


def _run_detector(detector: Detector | None, data: bytes, tld: str | None) -> Encoding | None:
    """The detector's answer. A detector that raises, or answers anything but an Encoding or
    ``None``, is a programming error: it propagates (``TypeError`` for a wrong answer) so the
    caller can report it; bad input alone never gets here."""
    if detector is None:
        return None
    answer: object = detector.detect(data, tld=tld)
    if answer is None or isinstance(answer, Encoding):
        return answer
    raise TypeError(
        f"{type(detector).__name__}.detect() returned {answer!r}, not an Encoding or None"
    )


def decode_html(
    body: bytes,
    content_type: object = None,
    *,
    url: str | None = None,
    forced: Encoding | str | None = None,
    detector: Detector | None = DEFAULT_DETECTOR,
    tld_hint: bool = True,
) -> tuple[str, Decision]:
    """The text a browser reads from the HTML ``body``, and the :class:`Decision` behind it.

    Arguments as for :func:`sniff`. Decoding follows the Encoding Standard: the decided
    encoding's decoder with U+FFFD for malformed input; a BOM is removed (a forced encoding
    removes only its own BOM).
    """
    return decode_document(body, content_type, url, forced, detector, tld_hint, True)


def decode_document(
    body: object,
    content_type: object,
    url: str | None,
    forced: Encoding | str | None,
    detector: Detector | None,
    tld_hint: bool,
    html: bool,
) -> tuple[str, Decision]:
    """:func:`decode_html`, or with ``html=False`` :func:`~.documents.decode_text`: one
    decision and one decode (valid UTF-8 found while sniffing is not decoded again)."""
    data = _as_bytes(body)
    decision, text = sniff_document(
        data, content_type, url, forced, detector=detector, tld_hint=tld_hint, html=html
    )
    return (decode_as_decided(data, decision) if text is None else text), decision


def decode_as_decided(data: bytes, decision: Decision) -> str:
    """The Encoding Standard's decode with the decided encoding: a BOM wins and is removed,
    but a forced encoding (the user's choice in a browser's menu) only loses its own BOM.
    ``decision`` is ``data``'s own (a decision by BOM: ``data`` starts with that BOM)."""
    source = decision.source
    if source is Source.BOM:
        return decode_after_bom(data, decision.encoding)
    if source is Source.FORCED:
        return decode(data, decision.encoding, bom="strip")
    return decode_sniffing_bom(data, decision.encoding)
