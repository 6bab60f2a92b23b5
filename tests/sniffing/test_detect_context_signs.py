"""Signs of a page's footer or breadcrumbs (`» ©`) among a few letters, read by other
encodings as letters that stand where no language puts them. Real bytes in real encodings,
decoded by ``decode_html``; the texts are this project's own.

- Two letters that are no word alone count as two, also a single space apart: `» ©` in
  ISO-8859-2 is `ť Š`, two one-letter words no language has (one was counted: the two
  matches of " k " shared their space).
- The pilcrow `¶` that documentation pages put after each heading (a permalink) is a sign of
  running text, as `§` is: a page whose only non-ASCII bytes are such marks is no Polish `ś`
  (ISO-8859-2) or Esperanto `ĥ` (ISO-8859-3). Chromium 156 shows most such pages as ISO-8859-2
  (tests/data/chromium, group `permalinks`). Glued to a heading's last word (as text taken
  out of such a page reads), it is ISO-8859-3's `ĥ` at a word's end, where Esperanto's
  `ĝ ĥ ĵ ŝ` never stand (its words end in a vowel or `j` `n` `s` `ŭ`; `eĉ` is a word).
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


PERMALINK_PAGES = [
    ("Installation", "Lesen Sie die Anleitung, bevor Sie beginnen.", "windows-1252", "de"),
    ("Come aiutare", "Scegliere ciò che si desidera tradurre.", "windows-1252", "it"),
    ("Candidater", "Vous avez lu toute la documentation du projet.", "windows-1252", "fr"),
    ("Applying to Become a Member", "So you have read the documentation.", "windows-1251", "ru"),
]


@pytest.mark.parametrize("glued", [False, True])
@pytest.mark.parametrize(("title", "text", "encoding", "tld"), PERMALINK_PAGES)
def test_heading_permalinks_are_signs(
    title: str, text: str, encoding: str, tld: str, glued: bool
) -> None:
    if glued:  # as text extracted from such a page reads
        body = f"<html><body><p>{title}¶ {text}</p></body></html>"
    else:
        anchor = '<a class="headerlink" href="#s" title="Permalink">¶</a>'
        body = f"<html><body><h2>{title}{anchor}</h2><p>{text}</p></body></html>"
    page = body.encode("cp1252" if encoding == "windows-1252" else "cp1251")
    for url in (None, f"http://www.example.{tld}/"):
        assert decodes_right(page, encoding, url)


def test_esperanto_circumflex_consonants_end_no_word() -> None:
    esperanto = "Eĉ ĝis nun ŝi manĝas ĉe la monaĥo, aŭ ĵaŭde ŝanĝo.".encode("iso8859_3")
    assert context_score(esperanto, "ISO-8859-3") == 0
    glued = "Candidater¶ Vous avez lu.".encode("cp1252")
    assert context_score(glued, "ISO-8859-3") < 0  # `Candidaterĥ`
    assert context_score(glued, "windows-1252") == 0
