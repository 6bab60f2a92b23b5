"""Signs of a page's footer or breadcrumbs (`» ©`) among a few letters, read by other
encodings as letters that stand where no language puts them. Real bytes in real encodings,
decoded by ``decode_html``; the texts are this project's own.

- Two letters that are no word alone count as two, also a single space apart: `» ©` in
  ISO-8859-2 is `ť Š`, two one-letter words no language has (one was counted: the two
  matches of " k " shared their space).
- A mark of a non-Latin script cannot sit on a Latin letter: French `Créé` in windows-874 is
  `Cr้้`, Thai tone marks on an `r` (Vietnamese tones, the combining diacritics of windows-1258,
  can).
"""

from __future__ import annotations

import pytest

from scrapy_charset.sniffing.letters import _lone_score, _lone_table, context_score
from tests.support.pages import decodes_right, html_page

FOOTERS = [
    "Documentation du projet 12.18 » © Copyright 2023, l'équipe. Créé en utilisant Sphinx.",
    "Sommaire » © 2021 Créé avec soin.",
    "Accueil » Actualités © Créé par l'association.",
    "Retour » © Copyright 2019. Créé avec Sphinx.",
    "Page suivante » © Copyright. Généré le 3 mai.",
]


@pytest.mark.parametrize("url", [None, "http://www.example.fr/", "http://example.com/"])
@pytest.mark.parametrize("text", FOOTERS)
def test_french_footers_read_as_windows_1252(text: str, url: str | None) -> None:
    assert decodes_right(html_page(text, "windows-1252"), "windows-1252", url)


def test_lone_letters_a_space_apart_count_each() -> None:
    marks = b" " + "x » © y".encode("cp1252").translate(_lone_table("ISO-8859-2"))
    assert _lone_score(marks) == 2 * _lone_score(b" k ")
    assert _lone_score(b" k ") < 0


def test_a_non_latin_mark_on_a_latin_letter_is_misplaced() -> None:
    french = "Créé en".encode("cp1252")
    thai = "คุณเป็น คน".encode("cp874")
    assert context_score(french, "windows-874") < 0
    assert context_score(thai, "windows-874") == 0
    # A Vietnamese tone on an ASCII vowel is how windows-1258 writes it.
    assert context_score("Tiê\u0301ng Viê\u0323t la\u0300".encode("cp1258"), "windows-1258") == 0
