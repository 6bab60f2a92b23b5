"""Detection of short undeclared pages whose languages share letters with others: Irish
among English boilerplate (its `á í` are windows-1257's Baltic `į ķ`), Romanian (windows-1250
`ă` is windows-1252 `ã`; ISO-8859-16 `ș ț` are the bytes of windows-1250 `ş ţ`), and the
country TLDs that say a language. Real bytes, decoded by ``decode_html``."""

from __future__ import annotations

from itertools import product

import pytest

from scrapy_charset.encoding import get_encoding
from scrapy_charset.sniffing import decode_html
from scrapy_charset.sniffing.letters import TLD_LANGUAGES
from tests.support.pages import decodes_right, html_page

# Irish sentences with one or two non-ASCII letters, among Irish and English filler (whose
# `to`, `no` are Latvian words too).
_IRISH = ("Oíche mhaith.", "Tá an aimsir fuar.", "Slán go fóill.", "Ní raibh sé ann.")
_IRISH_FILLERS = (
    "Welcome to our site. Fan linn ar an suiomh.",
    "Fan linn ar an suiomh. Ceolchoirm anocht ag a hocht.",
    "Welcome to our site. Welcome to our site. Gach praghas le CBL.",
)


@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize("url", [None, "http://www.example.ie/"])
def test_irish_with_english_boilerplate_is_no_baltic(encoding: str, url: str | None) -> None:
    """English words count for no language (`to` made `Oíche` read as Latvian `Oķche`)."""
    wrong = [
        (filler, text)
        for filler, text in product(_IRISH_FILLERS, _IRISH)
        if not decodes_right(html_page(f"{filler} {text} {filler}", encoding), encoding, url)
    ]
    assert wrong == []


_ROMANIAN_FILLER = "Magazinul are multe produse noi. Programul este de luni pana vineri."


@pytest.mark.parametrize("after", ["Magazinul are multe produse noi.", "Un „da” ferm, spune ea."])
def test_romanian_windows_1250_on_ro(after: str) -> None:
    """windows-1250 `ă` (windows-1252 `ã`) ties on letters, and the words around it are
    not enough: `.ro` says Romanian."""
    text = f"Magazinul are multe produse noi. Biletul costă 12 €. {after}"
    body = html_page(text, "windows-1250")
    assert decodes_right(body, "windows-1250", "http://www.example.ro/")


@pytest.mark.parametrize("url", [None, "http://www.example.ro/"])
@pytest.mark.parametrize(
    "text",
    [
        "El a spus „Vin mâine” și a plecat.",
        "Prețul: 45,50 € pe noapte.",
        "Ea a întrebat: „Unde ești?”",
    ],
)
def test_romanian_iso_8859_16_by_its_signs(url: str | None, text: str) -> None:
    """ISO-8859-16's `„ ” €` (windows-1250 `Ą µ ¤`, ISO-8859-2 `Ľ ľ ¤`) tell it apart."""
    body = html_page(f"{_ROMANIAN_FILLER} Știm că vine mâine. {text}", "ISO-8859-16")
    assert decodes_right(body, "ISO-8859-16", url)


@pytest.mark.parametrize("url", [None, "http://www.example.ro/"])
def test_romanian_without_signs_is_the_encoding_served(url: str | None) -> None:
    """Without a sign only ISO-8859-16 has, its bytes are windows-1250's (cedilla `ş ţ`), the
    encoding Romanian pages are served in; `.ro` says the language, not the encoding."""
    text = f"{_ROMANIAN_FILLER} Aceasta este o țară frumoasă. Știm că vine."
    body = html_page(text, "ISO-8859-16")
    assert decode_html(body, url=url)[1].encoding == get_encoding("windows-1250")


@pytest.mark.parametrize(
    ("tlds", "language"),
    [
        (("mx", "ar", "cl", "co", "pe", "ve", "uy", "ec", "bo", "py", "cr"), "spanish"),
        (("br", "pt"), "portuguese"),
        (("ie",), "irish"),
        (("ro", "md"), "romanian with cedilla"),
    ],
)
def test_country_tlds_say_their_language(tlds: tuple[str, ...], language: str) -> None:
    assert {tld: TLD_LANGUAGES.get(tld) for tld in tlds} == dict.fromkeys(tlds, language)
