"""The charset of a ``Content-Type`` header, as the Fetch Standard reads it.

Implements Fetch's "get, decode, and split" and "extract a MIME type", MIME Sniffing's
"parse a MIME type", and Encoding's "legacy extract an encoding". Every step is linear in the
length of the header, so a hostile megabyte-long header costs time in proportion only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .._namedtuple import NamedTuple
from .._regex import lazy_compile
from ..encoding import Encoding, lookup

HeaderInput = str | bytes | bytearray | memoryview | Iterable[str | bytes | bytearray | memoryview]

# Fetch: HTTP whitespace is TAB, LF, CR and SPACE; "HTTP tab or space" is TAB and SPACE.
_HTTP_WHITESPACE = "\t\n\r "
_HTTP_TAB_OR_SPACE = "\t "
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_QUOTED_STRING_TOKEN = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
_NOT_QUOTE_OR_COMMA = lazy_compile(r'[^",]*')
# Part of the body of an HTTP quoted string after its opening quote: runs of plain code
# points, each escape a backslash plus one code point, at most 4,096 escapes (re keeps a state
# for each repeat of a group: on a hostile megabyte of escapes that memory made the match
# several times slower than linear, so _quoted_body_end matches again after each 4,096).
# Stops at the closing quote, a lone final backslash or the end; the alternatives start with
# different code points, so matching is linear.
_QUOTED_BODY_PART = lazy_compile(r'[^"\\]*(?:\\[\s\S][^"\\]*){0,4096}')
_ESCAPE = lazy_compile(r"\\([\s\S])")
# After ";", HTTP whitespace is skipped; a parameter with an empty name followed by ";" is
# skipped whole, so a run of ";" and whitespace is one step (same result, linear time).
_PARAMETER_START = lazy_compile(r"[;\t\n\r ]*")
_NOT_SEMICOLON_OR_EQUALS = lazy_compile(r"[^;=]*")
_NOT_SEMICOLON = lazy_compile(r"[^;]*")


class MimeType(NamedTuple):
    """A parsed MIME type: lowercase ``type`` and ``subtype``, and its ``parameters``."""

    type: str
    subtype: str
    parameters: dict[str, str]

    @property
    def essence(self) -> str:
        return f"{self.type}/{self.subtype}"


def _ascii_lower(text: str) -> str:
    return text.translate(_ASCII_LOWER)


def _quoted_body_end(text: str, start: int) -> int:
    """Where the body of the quoted string starting at ``start`` ends: at its closing quote,
    a lone final backslash, or the end of ``text``."""
    end = start
    while True:
        end = _QUOTED_BODY_PART.match(text, end).end()  # type: ignore[union-attr]
        if end + 1 >= len(text) or text[end] != "\\":
            return end
        # (a backslash escaping a code point: the part stopped after 4,096 escapes)


def collect_http_quoted_string(text: str, position: int, *, extract_value: bool) -> tuple[str, int]:
    """Fetch's "collect an HTTP quoted string" from the ``"`` at ``position``.

    Returns the collected string and the position after it.
    """
    end = _quoted_body_end(text, position + 1)
    body = text[position + 1 : end]
    trailing_backslash = ""
    if end < len(text):
        if text[end] == "\\":
            # A backslash at the very end escapes nothing and is kept as is.
            trailing_backslash = "\\"
            end = len(text)
        else:
            end += 1  # the closing quote
    if not extract_value:
        return text[position:end], end
    if "\\\\" not in body:  # each backslash escapes a code point other than a backslash
        return body.replace("\\", "") + trailing_backslash, end
    # Each escape replaced by the code point it escapes (a split keeps the captured groups:
    # no template is expanded for each of thousands of escapes).
    return "".join(_ESCAPE.split(body)) + trailing_backslash, end


def split_header_value(value: str) -> list[str]:
    """Fetch's "get, decode, and split" on an already combined, decoded header value."""
    if '"' not in value or "," not in value:
        # Without quotes, or commas, the algorithm is a plain split (done in C).
        return [piece.strip(_HTTP_TAB_OR_SPACE) for piece in value.split(",")]
    values: list[str] = []
    pieces: list[str] = []
    position = 0
    length = len(value)
    while True:
        run = _NOT_QUOTE_OR_COMMA.match(value, position).end()  # type: ignore[union-attr]
        pieces.append(value[position:run])
        position = run
        if position < length and value[position] == '"':
            quoted, position = collect_http_quoted_string(value, position, extract_value=False)
            pieces.append(quoted)
            if position < length:
                continue
        values.append("".join(pieces).strip(_HTTP_TAB_OR_SPACE))
        pieces = []
        if position >= length:
            return values
        position += 1  # the comma


def _type_and_subtype(text: str) -> tuple[str, str, int] | None:
    """The first steps of "parse a MIME type" on ``text`` (HTTP whitespace stripped): the
    lowercase type and subtype, and where the parameters start; ``None`` for failure."""
    slash = text.find("/")
    if slash <= 0 or not _TOKEN.fullmatch(text, 0, slash):
        return None
    semicolon = text.find(";", slash + 1)
    subtype_end = len(text) if semicolon < 0 else semicolon
    subtype = text[slash + 1 : subtype_end].rstrip(_HTTP_WHITESPACE)
    if not subtype or not _TOKEN.fullmatch(subtype):
        return None
    return _ascii_lower(text[:slash]), _ascii_lower(subtype), subtype_end


def parse_mime_type(text: str) -> MimeType | None:
    """MIME Sniffing's "parse a MIME type"; ``None`` for failure."""
    text = text.strip(_HTTP_WHITESPACE)
    found = _type_and_subtype(text)
    if found is None:
        return None
    mime = MimeType(found[0], found[1], {})
    subtype_end = found[2]
    parameters = mime.parameters
    position = subtype_end
    length = len(text)
    while position < length:
        # Steps: skip ";" and HTTP whitespace, collect the name up to ";" or "=".
        position = _PARAMETER_START.match(text, position).end()  # type: ignore[union-attr]
        name_end = _NOT_SEMICOLON_OR_EQUALS.match(text, position).end()  # type: ignore[union-attr]
        name = _ascii_lower(text[position:name_end])
        position = name_end
        if position < length:
            if text[position] == ";":
                continue
            position += 1  # the "="
        if position >= length:
            break
        if text[position] == '"':
            value, position = collect_http_quoted_string(text, position, extract_value=True)
            position = _NOT_SEMICOLON.match(text, position).end()  # type: ignore[union-attr]
        else:
            value_end = _NOT_SEMICOLON.match(text, position).end()  # type: ignore[union-attr]
            value = text[position:value_end].rstrip(_HTTP_WHITESPACE)
            position = value_end
            if not value:
                continue
        if (
            name
            and name not in parameters
            and _TOKEN.fullmatch(name)
            and _QUOTED_STRING_TOKEN.fullmatch(value)
        ):
            parameters[name] = value
    return mime


def extract_mime_type(values: Iterable[str]) -> MimeType | None:
    """Fetch's "extract a MIME type" over the split ``Content-Type`` values, skipping a value
    that is exactly ``*/*`` as Chromium does.

    Fetch skips every value whose essence is ``*/*``; Chromium skips only the bare ``*/*``
    and counts ``*/*; charset=X`` and ``*/*; q=0.8`` as a type of their own (measured:
    ``header-star-type``, ``header-comma-list-star*``), and so do we.

    The spec's steps as written, with every parameter: :func:`charset_from_content_type` and
    :func:`is_xml_mime_type` read only the essence and charset
    (:func:`_extracted_essence_and_charset`), and are tested against this.
    """
    charset: str | None = None
    essence: str | None = None
    mime: MimeType | None = None
    for value in values:
        if value.strip(_HTTP_WHITESPACE) == "*/*":
            continue
        candidate = parse_mime_type(value) if "/" in value else None
        if candidate is None:
            continue
        mime = candidate
        if candidate.essence != essence:
            charset = candidate.parameters.get("charset")
            essence = candidate.essence
        elif "charset" not in candidate.parameters and charset is not None:
            candidate.parameters["charset"] = charset
    return mime


# A "charset" parameter's name (ASCII letters of either case, as _ascii_lower compares them),
# "=" and the value up to the next ";", in a MIME type without quotes (where every ";" ends a
# parameter): it is one where the HTTP whitespace before it follows a ";". (That is checked
# after the match: a lookbehind costs a test at every position. A match that is none takes
# its value, holding no ";", and every candidate in it, none after a ";" either.)
_CHARSET_PARAMETER = re.compile(r"[Cc][Hh][Aa][Rr][Ss][Ee][Tt]=([^;]*)")


def _essence_and_charset(value: str) -> tuple[str, str | None] | None:
    """:func:`parse_mime_type`'s essence and ``charset`` parameter (``None``: none) for one
    value; ``None`` for failure. Without a quote, the charset is found by one search, not by
    collecting every parameter (a hostile header holds thousands)."""
    if len(value) <= _CACHED_LENGTH:  # a crawl meets few distinct values
        return _cached_essence_and_charset(value)
    return _cached_essence_and_charset.__wrapped__(value)


@lru_cache(maxsize=1024)
def _cached_essence_and_charset(value: str) -> tuple[str, str | None] | None:
    text = value.strip(_HTTP_WHITESPACE)
    if '"' in text:
        mime = parse_mime_type(text)
        return None if mime is None else (mime.essence, mime.parameters.get("charset"))
    found = _type_and_subtype(text)
    if found is None:
        return None
    essence, subtype_end = f"{found[0]}/{found[1]}", found[2]
    # The first charset parameter with a value (parse_mime_type keeps the first valid one).
    for match in _CHARSET_PARAMETER.finditer(text, subtype_end + 1):
        before = match.start() - 1  # back over the whitespace (each run once: linear)
        while text[before] in _HTTP_WHITESPACE:
            before -= 1
        if text[before] != ";":
            continue  # "charset=" inside a value
        charset = match.group(1).rstrip(_HTTP_WHITESPACE)
        if charset and _QUOTED_STRING_TOKEN.fullmatch(charset):
            return essence, charset
    return essence, None


def _extracted_essence_and_charset(values: Iterable[str]) -> tuple[str, str | None] | None:
    """:func:`extract_mime_type`'s essence and ``charset`` parameter, from
    :func:`_essence_and_charset` of each value; ``None`` for failure."""
    found: tuple[str, str | None] | None = None
    charset: str | None = None
    previous = None
    for value in values:
        if value == previous:  # the same value again changes nothing (a server repeats one)
            continue
        previous = value
        if value.strip(_HTTP_WHITESPACE) == "*/*":
            continue
        candidate = _essence_and_charset(value) if "/" in value else None
        if candidate is None:
            continue
        essence, own = candidate
        if found is None or essence != found[0]:
            charset = own
        elif own is None and charset is not None:
            own = charset
        found = essence, own
    return found


def combine_header_values(content_type: object) -> str | None:
    """The header list's combined value: values isomorphic-decoded and joined with ", ".

    Accepts ``None``, ``str``, bytes-like, or an iterable of those; anything else counts as
    no header.
    """
    if content_type is None:
        return None
    if type(content_type) is list and content_type:  # Scrapy's getlist()
        if len(content_type) == 1 and type(content_type[0]) is bytes:
            return content_type[0].decode("latin-1")
        try:  # bytes-like values only, joined in one call (a hostile server sends thousands)
            return b", ".join(content_type).decode("latin-1")
        except TypeError:  # (some value is no bytes-like object)
            pass
    if isinstance(content_type, (str, bytes, bytearray, memoryview)):
        items: Iterable[object] = (content_type,)
    elif isinstance(content_type, Iterable):
        items = content_type
    else:
        return None
    decoded: list[str] = []
    for item in items:
        if isinstance(item, str):
            decoded.append(item)
        elif isinstance(item, (bytes, bytearray, memoryview)):
            decoded.append(bytes(item).decode("latin-1"))
    return ", ".join(decoded) if decoded else None


def legacy_extract_encoding(mime: MimeType | None) -> tuple[str, Encoding | None] | None:
    """Encoding's "legacy extract an encoding": the charset label and its encoding.

    ``None`` when there is no ``charset`` parameter; the encoding is ``None`` for a label that
    is not one of the Encoding Standard's (such as ``utf-7``), which the caller must ignore.
    """
    if mime is None:
        return None
    label = mime.parameters.get("charset")
    if label is None:
        return None
    return label, lookup(label)


def charset_from_content_type(content_type: object) -> tuple[str, Encoding | None] | None:
    """The charset a browser reads from ``Content-Type`` header value(s)."""
    combined = combine_header_values(content_type)
    if combined is None:
        return None
    if len(combined) <= _CACHED_LENGTH:  # a crawl meets few distinct headers
        return _charset_from_combined(combined)
    if len(combined) <= LONG_CACHED_LENGTH:  # a server sending one odd header again and again
        return _charset_from_long(combined)
    return _charset_from_combined.__wrapped__(combined)


_CACHED_LENGTH = 256
# Longer values are cached too, but fewer (at most 16 x 64 KB kept alive).
LONG_CACHED_LENGTH = 1 << 16


@lru_cache(maxsize=1024)
def _charset_from_combined(combined: str) -> tuple[str, Encoding | None] | None:
    found = _extracted_essence_and_charset(split_header_value(combined))
    label = None if found is None else found[1]
    return None if label is None else (label, lookup(label))


_charset_from_long = lru_cache(maxsize=16)(_charset_from_combined.__wrapped__)


def is_xml_mime_type(content_type: object) -> bool:
    """Whether the ``Content-Type`` header value(s) name an XML MIME type (MIME Sniffing:
    a subtype ending in ``+xml``, or ``text/xml``, ``application/xml``), which a browser
    parses, and decodes, as XML."""
    combined = combine_header_values(content_type)
    if combined is None or "xml" not in combined.lower():
        return False
    found = _extracted_essence_and_charset(split_header_value(combined))
    if found is None:
        return False
    essence = found[0]
    return essence.endswith("+xml") or essence in ("text/xml", "application/xml")
