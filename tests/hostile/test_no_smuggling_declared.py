"""Every label and Python codec name, declared in a header or a ``<meta>``, stays harmless.

Whatever a page declares, the text a spider gets has no ``<``, ``>``, ``"``, ``'`` or ``&``
beyond the ones in its bytes (see ``test_no_smuggling`` for the decoders themselves).
"""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, UTF_8, WINDOWS_1252, lookup
from scrapy_charset.sniffing import Source, decode_html
from tests.hostile.test_no_smuggling import ALL_NAMES, SMUGGLERS, created_markup

PAYLOAD = b"<p>" + b"|".join(SMUGGLERS) + b"</p>"


def meta_result(name: str):  # type: ignore[no-untyped-def]
    """What the prescan must give for ``<meta charset=name>`` (HTML Standard, prescan step)."""
    encoding = lookup(name)
    if encoding is None:
        return None
    if encoding.name in ("UTF-16BE", "UTF-16LE"):
        return UTF_8
    if encoding.name == "x-user-defined":
        return WINDOWS_1252
    return encoding


def assert_harmless(body: bytes, text: str, encoding: object) -> None:
    assert any(encoding is enc for enc in ALL_ENCODINGS)
    assert not created_markup(body, text), (encoding, created_markup(body, text))


def test_header_charset() -> None:
    for name in ALL_NAMES:
        check_header_charset(name)


def test_meta_charset_and_http_equiv() -> None:
    for name in ALL_NAMES:
        check_meta_charset(name)


def check_header_charset(name: str) -> None:
    text, decision = decode_html(PAYLOAD, f"text/html; charset={name}")
    assert_harmless(PAYLOAD, text, decision.encoding)
    expected = lookup(name)
    if expected is None:
        assert decision.source is not Source.HEADER
    else:
        assert (decision.encoding, decision.source) == (expected, Source.HEADER), name


def check_meta_charset(name: str) -> None:
    for declaration in (
        f'<meta charset="{name}">',
        f"<meta http-equiv=Content-Type content='text/html; charset={name}'>",
    ):
        body = declaration.encode("latin-1") + PAYLOAD
        text, decision = decode_html(body, "text/html")
        assert_harmless(body, text, decision.encoding)
        expected = meta_result(name)
        if expected is None:
            assert decision.source not in (Source.META, Source.LATE_META)
        else:
            assert (decision.encoding, decision.source) == (expected, Source.META), name


@pytest.mark.parametrize("name", ["utf-7", "UTF-7", "x-imap4-modified-utf7", "hz", "utf7"])
def test_utf7_everywhere_at_once_is_plain_text(name: str) -> None:
    declarations = f'<?xml version="1.0" encoding="{name}"?><meta charset={name}>'
    body = declarations.encode() + SMUGGLERS[0]
    text, decision = decode_html(body, [f"text/html; charset={name}", f"charset={name}"])
    assert text == body.decode("ascii")
    assert (decision.encoding, decision.source) == (WINDOWS_1252, Source.DEFAULT)
