"""Guillemets around words (`«Desa»`, `« Ouvrir »`, `»Öffnen«`) are quotes, not the letters
ISO-8859-2 (`Ť ť`), ISO-8859-3 (`Ğ ğ`) or ISO-8859-4 (`Ģ ģ`) have at 0xAB and 0xBB: they count
for no reading, and among readings otherwise alike, those with guillemets there are preferred.
Chromium reads such windows-1252 pages as windows-1252 (tests/data/chromium, group
`guillemets`). Real bytes, decoded by ``decode_html``."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import decode, get_encoding
from scrapy_charset.sniffing import decode_html
from scrapy_charset.sniffing.detect import neutral_signs
from tests.support.pages import html_page


@pytest.mark.parametrize(
    ("text", "neutral"),
    [
        ("Feu clic a «Desa» i a «Obre».", b'Feu clic a "Desa" i a "Obre".'),
        ("Cliquez sur « Enregistrer » pour", b'Cliquez sur " Enregistrer " pour'),
        ("auf »Speichern«, um »Öffnen«.", b'auf "Speichern", um "\xd6ffnen".'),
        ("el carácter «_». No", b'el car\xe1cter "_". No'),
        # Not around words: after or before a letter, empty, or the same mark twice.
        ("a«b»c", "a«b»c".encode("cp1252")),
        ("x «» y", "x «» y".encode("cp1252")),
        ("x «a« y", "x «a« y".encode("cp1252")),
    ],
)
def test_guillemets_around_words_are_made_neutral(text: str, neutral: bytes) -> None:
    assert neutral_signs(text.encode("cp1252")) == neutral


_CATALAN = "Feu clic a «Desa» per desar el document i a «Obre» per obrir-ne un altre."
_SPANISH_CHARACTER = (
    "Los nombres de ranuras de replicación sólo pueden contener letras minúsculas, números y el"
    " carácter «_». No se pudo crear el archivo de estado «datos» en el directorio."
)


@pytest.mark.parametrize("text", [_CATALAN, _SPANISH_CHARACTER, "Pulse «Guardar» y «Abrir»."])
@pytest.mark.parametrize("url", [None, "http://www.example.es/"])
def test_western_text_with_guillemets_reads_as_windows_1252(text: str, url: str | None) -> None:
    body = html_page(text, "windows-1252")
    assert decode_html(body, url=url)[0] == decode(body, get_encoding("windows-1252"))


def test_guillemets_prefer_the_readings_that_have_them() -> None:
    """Slovene windows-1250 with `»data«`: its `č` reads alike in ISO-8859-2, the .si default,
    which has `ť Ť` for the guillemets."""
    text = (
        "Izbran predmet ni mapa. Izberite drug predmet in kliči znova. Tiskalnik »data« ima"
        " odprta vratca."
    )
    body = html_page(text, "windows-1250")
    text_read, decision = decode_html(body, url="http://www.example.si/")
    assert (text_read, decision.encoding.name) == (
        decode(body, get_encoding("windows-1250")),
        "windows-1250",
    )


def test_slovak_letters_still_decide_a_slovak_page() -> None:
    """A Slovak ISO-8859-2 page whose `Ť ... ť` happen to stand as a pair (`Ťava ... radosť`)
    loses those two letters as evidence; its others still read it as ISO-8859-2."""
    text = (
        "Ťava je radosť. Šťastie a žiaľ sú súčasťou života, ako každý vie. Ďalšie správy"
        " prinesieme zajtra, keď sa situácia vyjasní."
    )
    body = html_page(text, "ISO-8859-2")
    assert decode_html(body, url="http://www.example.sk/")[0] == decode(
        body, get_encoding("ISO-8859-2")
    )
