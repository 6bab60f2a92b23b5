"""Chromium's ``<meta>`` charset scan, which goes on past the first 1,024 bytes.

Chromium tokenizes the start of the document (read as windows-1252) and honours the first
``<meta>`` charset it meets until it has left ``<head>`` — met a tag not allowed there — *and*
consumed 1,024 bytes. Measured in Chromium: a ``<meta>`` after 200 KB of ``<script>`` in
``<head>`` counts, one 1,500 bytes into ``<body>`` does not. Tags inside ``<script>``,
``<style>``, ``<title>`` and the other raw-text elements are not tags, and comments hide what
they contain. Every step jumps with a compiled pattern or ``find`` and consumes at least one
byte, so the scan is linear.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from .._regex import lazy_compile
from ..encoding import ALL_ENCODINGS, Encoding, lookup
from ..encoding.cjk import compiled
from .prescan import PRESCAN_LIMIT, MetaDeclaration, _prescan_substitute, extract_encoding_from_meta

# Tags that keep the scanner "in head" (start or end tags), and html/head start tags.
_HEAD_TAGS = frozenset(
    (b"script", b"noscript", b"style", b"link", b"meta", b"object", b"title", b"base")
)
_HEAD_START_ONLY = frozenset((b"html", b"head"))
# Elements whose content the tokenizer reads as text up to the matching end tag.
_RAW_TEXT = frozenset(
    (b"script", b"style", b"title", b"textarea", b"xmp", b"iframe", b"noembed", b"noframes")
)

_TAG_NAME = lazy_compile(rb"[^\t\n\x0c\r />]*")
# One step of the tag's tokenization, from after its name or the last attribute: whitespace
# and "/", then either the ">" that closes the tag or an attribute (its name's first byte may
# even be "="; whitespace around "="), whose value is quoted, unquoted or absent. A quote
# without its closing quote (``unclosed``) means the input ends inside the tag.
_ATTRIBUTE = lazy_compile(
    rb"[\t\n\x0c\r /]*"
    rb"(?:(>)|([^\t\n\x0c\r />][^\t\n\x0c\r /=>]*)[\t\n\x0c\r ]*"
    rb"(=[\t\n\x0c\r ]*(?:\"([^\"]*)\"|'([^']*)'|([\"'])|([^\t\n\x0c\r >]*)))?)?"
)
_COMMENT_END = lazy_compile(rb"--!?>")


def _read_tag(data: bytes, position: int) -> tuple[bytes, list[tuple[bytes, bytes]], int] | None:
    """Tokenize the tag whose name starts at ``position``: its name, its attributes and the
    offset past its ``>``; ``None`` if the input ends first."""
    length = len(data)
    name_end = _TAG_NAME.match(data, position).end()  # type: ignore[union-attr]
    name = data[position:name_end].lower()
    position = name_end
    attributes: list[tuple[bytes, bytes]] = []
    while True:
        step = _ATTRIBUTE.match(data, position)
        close, attribute, equals, double, single, unclosed, bare = step.groups()  # type: ignore[union-attr]
        position = step.end()  # type: ignore[union-attr]
        if close is not None:
            return name, attributes, position
        if attribute is None or unclosed is not None or (bare == b"" and position >= length):
            return None  # the input ends inside the tag (or right after "=")
        value = double if double is not None else single if single is not None else bare
        # Repeated attributes are kept: Chromium's meta reading lets the last one win.
        attributes.append((attribute.lower(), value or b""))


@cache
def _end_tag_pattern(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"</" + re.escape(name) + rb"[\t\n\x0c\r />]", re.IGNORECASE)


def _raw_text_end(data: bytes, position: int, name: bytes) -> int:
    """Where the text of a raw-text element ends: at its end tag, or the end of input."""
    found = _end_tag_pattern(name).search(data, position)
    return len(data) if found is None else found.start()


# A <script>'s text follows the tokenizer's script data states (measured in Chromium,
# tests/data/chromium/documents_random.jsonl.gz, FINDINGS.md): "<!--" makes it "escaped", where
# a "<script" start tag makes it "double escaped" and "-->" returns to plain script data; in
# the double escaped state "</script" only goes back to "escaped". So in
# ``<script><!-- <script> </script> <meta charset=x> --></script>`` the <meta> is script text.
_SCRIPT_DATA = lazy_compile(rb"<!--|</script[\t\n\x0c\r />]", re.IGNORECASE)
_SCRIPT_ESCAPED = lazy_compile(rb"-->|</?script[\t\n\x0c\r />]", re.IGNORECASE)
_SCRIPT_DOUBLE_ESCAPED = lazy_compile(rb"-->|</script[\t\n\x0c\r />]", re.IGNORECASE)


def _script_end(data: bytes, position: int) -> int:
    """Where a ``<script>``'s text ends: at the ``</script`` that ends it, or the end of input."""
    state = _SCRIPT_DATA
    while True:
        found = state.search(data, position)
        if found is None:
            return len(data)
        token = found.group()
        if token == b"-->":
            state, position = _SCRIPT_DATA, found.end()
        elif token == b"<!--":
            # Its dashes count: "<!-->" and "<!--->" return to script data at once.
            state, position = _SCRIPT_ESCAPED, found.end() - 2
        elif token[1:2] != b"/":
            state, position = _SCRIPT_DOUBLE_ESCAPED, found.end()
        elif state is _SCRIPT_DOUBLE_ESCAPED:
            state, position = _SCRIPT_ESCAPED, found.end()
        else:
            return found.start()


# The next <meta> that may declare a charset: (offset of its "<", offset past its ">", the
# value declared, whether that value is a ``content`` (else a ``charset``), in-head state after
# it), or None where the scan ends.
NextMeta = tuple[int, int, bytes, bool, bool]


def _next_meta(
    data: bytes,
    position: int,
    in_head: bool,
    unconditional: int,
    labels: frozenset[bytes] | None = None,
) -> NextMeta | None:
    """From ``position``, Chromium's tokenizer up to the next ``<meta>`` with a ``charset``
    attribute (the last one, even empty or unknown: it wins over ``content`` in either order)
    or a ``content`` attribute and an ``http-equiv`` of ``content-type`` (measured). With
    ``labels`` (:data:`LABELS`), a ``<meta>`` whose value names none of them (or, a
    ``content``, no charset) is passed over. The reference for the compiled ``next_meta``."""
    length = len(data)
    while position < length:
        if not in_head and position >= unconditional:
            return None
        lt = data.find(b"<", position)
        if lt < 0:
            return None
        if not in_head and lt >= unconditional:
            return None  # the text before this "<" is a token that ends the scan
        nxt = data[lt + 1 : lt + 2]
        if nxt.isalpha() or (nxt == b"/" and data[lt + 2 : lt + 3].isalpha()):
            end_tag = nxt == b"/"
            read = _read_tag(data, lt + (2 if end_tag else 1))
            if read is None:
                return None
            name, attributes, position = read
            if not end_tag and name == b"meta":
                declared = _declared(attributes)
                if declared is not None and (labels is None or _names_one(declared, labels)):
                    return lt, position, declared[0], declared[1], in_head
            if name not in _HEAD_TAGS and (end_tag or name not in _HEAD_START_ONLY):
                in_head = False
            if not end_tag:
                if name == b"plaintext":
                    return None
                if name == b"script":
                    position = _script_end(data, position)
                elif name in _RAW_TEXT:
                    position = _raw_text_end(data, position, name)
        elif data.startswith(b"<!--", lt):
            # "<!-->" and "<!--->" close at once; otherwise the first "-->" or "--!>".
            if data.startswith(b"<!-->", lt) or data.startswith(b"<!--->", lt):
                position = data.find(b">", lt + 4) + 1
                continue
            found = _COMMENT_END.search(data, lt + 4)
            if found is None:
                return None
            position = found.end()
        elif nxt in (b"!", b"?", b"/"):
            if data.startswith(b"</>", lt):
                position = lt + 3
                continue
            close = data.find(b">", lt + 2)
            if close < 0:
                return None
            position = close + 1
        else:
            position = lt + 1
    return None


# Every label of the standard, as lowercase bytes (what next_meta's ``labels`` holds).
LABELS = frozenset(label.encode("ascii") for encoding in ALL_ENCODINGS for label in encoding.labels)


def _names_one(declared: tuple[bytes, bool], labels: frozenset[bytes]) -> bool:
    """Whether a ``<meta>``'s declared value (see :func:`_declared`) names one of ``labels``."""
    value, is_content = declared
    if is_content:
        extracted = extract_encoding_from_meta(value)
        if extracted is None:
            return False
        value = extracted[0].encode("latin-1")
    return value.strip(b"\t\n\x0c\r ").lower() in labels


def _declared(attributes: list[tuple[bytes, bytes]]) -> tuple[bytes, bool] | None:
    """What a ``<meta>``'s attributes may declare, as Chromium reads them: the last
    ``charset`` (``False``), else the last ``content`` if any ``http-equiv`` is
    ``content-type`` (``True``)."""
    charset: bytes | None = None
    content: bytes | None = None
    got_pragma = False
    for name, value in attributes:
        if name == b"http-equiv":
            got_pragma = got_pragma or value.lower() == b"content-type"
        elif name == b"charset":
            charset = value
        elif name == b"content":
            content = value
    if charset is not None:
        return charset, False
    if content is None or not got_pragma:
        return None
    return content, True


next_meta = _next_meta if compiled is None else compiled.next_meta


def _meta_charset(value: bytes, is_content: bool, start: int, end: int) -> MetaDeclaration | None:
    """The declaration a ``<meta>`` makes: a ``charset`` even with an unknown label; a
    ``content`` only if it holds a charset parameter."""
    # (Read once per value: a head repeats one, known or not, in <meta> after <meta>.)
    read = (_cached_label if len(value) <= 256 else _label)(value, is_content)
    return None if read is None else MetaDeclaration(read[0], read[1], end, start)


def _label(value: bytes, is_content: bool) -> tuple[str, Encoding | None] | None:
    """The label and encoding a ``<meta>``'s ``charset`` (or ``content``: ``is_content``)
    declares, as :func:`_meta_charset` reads them."""
    if not is_content:
        label = value.decode("latin-1")
        return label, _prescan_substitute(lookup(label))
    extracted = extract_encoding_from_meta(value)
    if extracted is None:
        return None
    return extracted[0], _prescan_substitute(extracted[1])


_cached_label = lru_cache(maxsize=256)(_label)


# The declarations with unknown labels a scan reports at most: past them, the scan passes
# over such a <meta> in the compiled loop (a head of thousands cost some 2 us each in Python,
# and as many entries in the decision's record).
MAX_IGNORED = 8


def scan_meta_like_chromium(
    data: bytes, unconditional: int = PRESCAN_LIMIT
) -> tuple[MetaDeclaration | None, list[MetaDeclaration]]:
    """The first ``<meta>`` charset with a known label Chromium's scan meets, and the first
    :data:`MAX_IGNORED` declarations with unknown labels it passed on the way (nothing after
    the first known one can change the decision: the scan stops there)."""
    position = 0
    in_head = True
    ignored: list[MetaDeclaration] = []
    labels = None  # until MAX_IGNORED are reported, every declaration comes back here
    while True:
        found = next_meta(data, position, in_head, unconditional, labels)
        if found is None:
            return None, ignored
        start, position, value, is_content, in_head = found
        declaration = _meta_charset(value, is_content, start, position)
        if declaration is not None:
            if declaration.encoding is not None:
                return declaration, ignored
            ignored.append(declaration)
            if len(ignored) == MAX_IGNORED:
                labels = LABELS
