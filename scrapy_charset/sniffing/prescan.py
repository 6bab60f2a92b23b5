"""The HTML Standard's "prescan a byte stream to determine its encoding".

Function names follow the spec's algorithms: :func:`prescan`, :func:`get_attribute`,
:func:`extract_encoding_from_meta` and :func:`get_xml_encoding`. Labels are reported as
written (the spec lowercases attribute values; label matching is case-insensitive anyway).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._namedtuple import NamedTuple
from .._regex import lazy_compile
from ..encoding import UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED, Encoding, lookup

PRESCAN_LIMIT = 1024

_WHITESPACE = b"\t\n\x0c\r "
_ATTRIBUTE_NAME_REST = lazy_compile(rb"[^=\t\n\x0c\r />]*")
_UNQUOTED_VALUE_REST = lazy_compile(rb"[^\t\n\x0c\r >]*")
_SKIP_WHITESPACE_AND_SLASH = lazy_compile(rb"[\t\n\x0c\r /]*")
_SKIP_WHITESPACE = re.compile(rb"[\t\n\x0c\r ]*")
# "<" then optionally "/" then an ASCII letter starts a tag the prescan skips.
_TAG_START = lazy_compile(rb"</?[A-Za-z]")
_TAG_NAME_END = lazy_compile(rb"[\t\n\x0c\r >]")
_CHARSET = re.compile(rb"charset", re.IGNORECASE)


class _OutOfBytes(Exception):
    """The algorithm needed a byte past the end of its input: the prescan finds nothing."""


class MetaDeclaration(NamedTuple):
    """A charset a ``<meta>`` declared: ``label`` as written, ``encoding`` after the prescan's
    UTF-16 → UTF-8 and x-user-defined → windows-1252 substitutions (``None`` if unknown).
    ``end`` is the offset just past the ``<meta>`` tag, ``start`` that of its ``<``."""

    label: str
    encoding: Encoding | None
    end: int
    start: int = 0


def _isomorphic_decode(data: bytes) -> str:
    return data.decode("latin-1")


def _prescan_substitute(encoding: Encoding | None) -> Encoding | None:
    # Prescan steps: "If charset is UTF-16BE/LE, then set charset to UTF-8. If charset is
    # x-user-defined, then set charset to windows-1252."
    if encoding is UTF_16BE or encoding is UTF_16LE:
        return UTF_8
    if encoding is X_USER_DEFINED:
        return WINDOWS_1252
    return encoding


def get_attribute(data: bytes, position: int) -> tuple[bytes, bytes, int] | int:
    """The spec's "get an attribute" at ``position``.

    Returns ``(name, value, position_after)`` with the name ASCII-lowercased and the value as
    written, or the position of the ``>`` when there is no attribute. Raises ``_OutOfBytes``
    when the input ends first.
    """
    length = len(data)
    # Step 1: skip whitespace and "/".
    position = _SKIP_WHITESPACE_AND_SLASH.match(data, position).end()  # type: ignore[union-attr]
    if position >= length:
        raise _OutOfBytes
    # Step 2: ">" means there is no attribute.
    if data[position] == 0x3E:
        return position
    # Steps 3-5: the attribute name; its first byte is taken whatever it is (even "=").
    name_end = _ATTRIBUTE_NAME_REST.match(data, position + 1).end()  # type: ignore[union-attr]
    name = data[position:name_end].lower()
    position = name_end
    if position >= length:
        raise _OutOfBytes
    byte = data[position]
    if byte in b"/>":
        return name, b"", position
    if byte != 0x3D:
        # Steps 6-8 "spaces": whitespace, then "=" or the attribute has no value.
        position = _SKIP_WHITESPACE.match(data, position).end()  # type: ignore[union-attr]
        if position >= length:
            raise _OutOfBytes
        if data[position] != 0x3D:
            return name, b"", position
    position += 1  # past "="
    # Step 9 "value": skip whitespace.
    position = _SKIP_WHITESPACE.match(data, position).end()  # type: ignore[union-attr]
    if position >= length:
        raise _OutOfBytes
    byte = data[position]
    # Step 10: a quoted value runs to the matching quote.
    if byte in b"\"'":
        close = data.find(bytes((byte,)), position + 1)
        if close < 0:
            raise _OutOfBytes
        return name, data[position + 1 : close], close + 1
    if byte == 0x3E:
        return name, b"", position
    # Steps 10-12: an unquoted value runs to whitespace or ">".
    value_end = _UNQUOTED_VALUE_REST.match(data, position + 1).end()  # type: ignore[union-attr]
    if value_end >= length:
        raise _OutOfBytes
    return name, data[position:value_end], value_end


def extract_encoding_from_meta(content: bytes) -> tuple[str, Encoding | None] | None:
    """The spec's "algorithm for extracting a character encoding from a meta element".

    Returns the label as written and its encoding (``None`` if the label is unknown), or
    ``None`` when the string declares no charset.
    """
    position = 0
    length = len(content)
    while True:
        # Step 2 "loop": the next "charset", ASCII case-insensitively.
        match = _CHARSET.search(content, position)
        if match is None:
            return None
        # Step 3: skip whitespace after the word.
        position = _SKIP_WHITESPACE.match(content, match.end()).end()  # type: ignore[union-attr]
        # Step 4: no "=" means look for the next "charset" from here.
        if position < length and content[position] == 0x3D:
            break
    # Step 5: skip whitespace after "=".
    position = _SKIP_WHITESPACE.match(content, position + 1).end()  # type: ignore[union-attr]
    if position >= length:
        return None
    quote = content[position]
    if quote in b"\"'":
        close = content.find(bytes((quote,)), position + 1)
        if close < 0:
            return None  # an unmatched quote
        label = content[position + 1 : close]
    else:
        end = position
        while end < length and content[end] not in b"\t\n\x0c\r ;":
            end += 1
        label = content[position:end]
    text = _isomorphic_decode(label)
    return text, lookup(text)


def _meta_declaration(
    data: bytes, position: int, start: int
) -> tuple[MetaDeclaration | None, int]:
    """The ``<meta`` branch of the prescan loop from the byte after ``<meta``.

    Returns the tag's declaration (``None`` if it declares nothing) and the position of its
    ``>``. Raises ``_OutOfBytes`` when the input ends inside the tag.
    """
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: tuple[str, Encoding | None] | None = None
    while True:
        attribute = get_attribute(data, position)
        if isinstance(attribute, int):
            position = attribute
            break
        name, value, position = attribute
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            if value.lower() == b"content-type":
                got_pragma = True
        elif name == b"content":
            extracted = extract_encoding_from_meta(value)
            if extracted is not None and charset is None:
                charset = extracted
                need_pragma = True
        elif name == b"charset":
            label = _isomorphic_decode(value)
            charset = (label, lookup(label))
            need_pragma = False
    # "Processing" steps: a content charset counts only with http-equiv=content-type.
    if need_pragma is None or charset is None or (need_pragma and not got_pragma):
        return None, position
    label, encoding = charset
    return MetaDeclaration(label, _prescan_substitute(encoding), position + 1, start), position


def _is_meta_start(data: bytes, position: int) -> bool:
    # "<meta" ASCII case-insensitively, then whitespace or "/".
    return (
        data[position + 1 : position + 5].lower() == b"meta"
        and position + 5 < len(data)
        and data[position + 5] in b"\t\n\x0c\r /"
    )


def iter_meta_declarations(data: bytes, start: int = 0) -> Iterator[MetaDeclaration]:
    """Every ``<meta>`` charset declaration the prescan loop meets in ``data``, in order.

    Unknown labels are included (with ``encoding=None``); the spec's prescan skips them and
    goes on. Iteration stops where the algorithm would run out of bytes.
    """
    length = len(data)
    position = start
    try:
        while True:
            position = data.find(b"<", position)
            if position < 0:
                return
            if data.startswith(b"<!--", position):
                # To the first "-->"; its dashes may be those of "<!--".
                close = data.find(b"-->", position + 2)
                if close < 0:
                    return
                position = close + 3
                continue
            if _is_meta_start(data, position):
                declaration, position = _meta_declaration(data, position + 5, position)
                if declaration is not None:
                    yield declaration
            elif _TAG_START.match(data, position):
                found = _TAG_NAME_END.search(data, position)
                if found is None:
                    return
                position = found.start()
                while True:
                    attribute = get_attribute(data, position)
                    if isinstance(attribute, int):
                        position = attribute
                        break
                    position = attribute[2]
            elif data[position + 1 : position + 2] in (b"!", b"/", b"?"):
                close = data.find(b">", position + 1)
                if close < 0:
                    return
                position = close
            # "Next byte".
            position += 1
            if position >= length:
                return
    except _OutOfBytes:
        return


def get_xml_encoding(data: bytes) -> tuple[str, Encoding] | None:
    """The spec's "get an XML encoding": the label in a leading ``<?xml ... encoding=...>``.

    Returns the label as written and its encoding (UTF-16 becomes UTF-8), or ``None``.
    """
    if not data.startswith(b"<?xml"):
        return None
    declaration_end = data.find(b">")
    if declaration_end < 0:
        return None
    declaration = data[:declaration_end]
    found = declaration.find(b"encoding")
    if found < 0:
        return None
    position = found + len(b"encoding")
    length = len(declaration)
    # Steps 6-9: bytes up to 0x20 around "=" are skipped.
    while position < length and declaration[position] <= 0x20:
        position += 1
    if position >= length or declaration[position] != 0x3D:
        return None
    position += 1
    while position < length and declaration[position] <= 0x20:
        position += 1
    if position >= length or declaration[position] not in b"\"'":
        return None
    quote = declaration[position]
    close = declaration.find(bytes((quote,)), position + 1)
    if close < 0:
        return None
    potential = declaration[position + 1 : close]
    if any(byte <= 0x20 for byte in potential):
        return None
    label = _isomorphic_decode(potential)
    encoding = lookup(label)
    if encoding is None:
        return None
    # Step 17: UTF-16 becomes UTF-8 (x-user-defined stays, unlike in the <meta> prescan).
    if encoding is UTF_16BE or encoding is UTF_16LE:
        encoding = UTF_8
    return label, encoding


def utf16_xml_declaration(data: bytes) -> Encoding | None:
    """The prescan's first step: ``<?x`` in UTF-16LE or UTF-16BE means that encoding."""
    if data.startswith(b"<\x00?\x00x\x00"):
        return UTF_16LE
    if data.startswith(b"\x00<\x00?\x00x"):
        return UTF_16BE
    return None


def prescan(data: bytes, limit: int = PRESCAN_LIMIT) -> Encoding | None:
    """The encoding the HTML Standard's prescan finds in the first ``limit`` bytes, or ``None``.

    Covers the UTF-16 XML declaration check, the ``<meta>`` loop and, when that finds nothing,
    "get an XML encoding".
    """
    head = bytes(data[:limit])
    utf16 = utf16_xml_declaration(head)
    if utf16 is not None:
        return utf16
    for declaration in iter_meta_declarations(head):
        if declaration.encoding is not None:
            return declaration.encoding
    xml = get_xml_encoding(head)
    return xml[1] if xml is not None else None
