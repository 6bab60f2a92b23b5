"""A foreign name among words that say their language clearly, and languages the letter model
lacked (Afrikaans, Occitan). Real bytes in real encodings, decoded by ``decode_html``; the texts
are this project's own.

A name's letters are a handful against a page of words: where the letters win only by reading
the name as another language (Icelandic `Norðurþing` in German text as windows-1254's Turkish
`Norğurşing`, `Võro` among French words as ISO-8859-3's Maltese `Vġro`), the words' language and
the encodings it is served in decide. Where the name is read as a letter that turns into no
letter, or the page's encoding is one its language is served in, the letters stand.
"""

from __future__ import annotations

import pytest

from scrapy_charset.sniffing.letters import (
    _own_word_hits,
    page_language_is_clear,
    prefer_clear_page_language,
    ranked_readings,
    usual_encodings,
)
from tests.support.pages import decodes_right, html_page

GERMAN = (
    "Die Bibliothek ist von Montag bis Freitag geöffnet. Wir haben neue Bücher über die"
    " Geschichte der Stadt und viele Karten für die Reise. Der Eintritt ist frei, und die"
    " Führung dauert eine Stunde."
)
FRENCH = (
    "La bibliothèque est ouverte du lundi au vendredi. Nous avons des livres sur l'histoire de"
    " la ville et des cartes pour le voyage. L'entrée est libre et la visite dure une heure."
)
URLS = [None, "http://example.com/"]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize("where", ["after the first sentence", "at the end"])
@pytest.mark.parametrize(
    ("text", "name"),
    [
        (GERMAN, "Strandabyggð"),  # windows-1254 `Strandabyggğ`
        (GERMAN, "Norðurþing"),  # windows-1254 `Norğurşing`
        (GERMAN, "Þórshöfn"),  # windows-1257 `Žórshöfn`
        (GERMAN, "Ísafjörður"),  # windows-1254 `Ísafjörğur`
        (FRENCH, "Norðurþing"),  # ISO-8859-14 `Norŵurŷing`
        (FRENCH, "Strandabyggð"),  # windows-1258
        (FRENCH, "Võro"),  # ISO-8859-3 `Vġro`
    ],
)
def test_a_foreign_name_among_clear_words_keeps_their_encoding(
    text: str, name: str, where: str, encoding: str, url: str | None
) -> None:
    if where == "at the end":
        text = f"{text} Ort: {name}."
    else:
        text = text.replace(". ", f". {name}. ", 1)
    assert decodes_right(html_page(text, encoding), encoding, url)


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("encoding", ["windows-1250", "ISO-8859-2"])
def test_a_polish_name_among_german_words_keeps_its_letters(
    encoding: str, url: str | None
) -> None:
    # Its letters read as Polish, and windows-1252's reading (`Gdañsk`) reads the German no
    # better: the letters stand, by more than one name's letter.
    body = html_page(f"{GERMAN} Gdańsk, Gdańsk und noch einmal Gdańsk.", encoding)
    assert decodes_right(body, encoding, url)


def test_the_rule_needs_clear_words_and_an_unusual_winner() -> None:
    body = html_page(f"{GERMAN} Ort: Þórshöfn.", "windows-1252")
    ranking = ranked_readings(body)
    assert "windows-1252" not in ranking.best  # the letters alone: `Ţórshöfn`, `Žórshöfn`...
    assert page_language_is_clear(body)
    assert prefer_clear_page_language(
        body, list(ranking.best), ranking.score, ("windows-1252", *ranking.best), body
    ) == ["windows-1252"]
    # Words of no clear language (German and as many Dutch words): no change.
    mixed = html_page(
        f"{GERMAN} De bibliotheek is van maandag tot vrijdag open. Wij hebben nieuwe boeken"
        " over de geschiedenis van de stad en veel kaarten voor de reis. De toegang is"
        " gratis, en de rondleiding duurt een uur. Ort: Þórshöfn.",
        "windows-1252",
    )
    assert not page_language_is_clear(mixed)
    # One word of a language again and again is no clear page of it (Polish `nad` is
    # Estonian's): three different words are.
    assert not page_language_is_clear(b"<p>nad nad nad nad w lesie i nad rzeka")
    assert page_language_is_clear(b"<p>die Stadt und der Hafen, das ist nicht weit")
    # Words Italian shares with Catalan (`la` `per` `al` `un`) say nothing between them: the
    # Italian ones of its own (`il` `dal` `della`) make the page clearly Italian.
    italian = (
        b"<p>La biblioteca aperta dal luned al venerd. Abbiamo nuovi libri sulla storia della"
        b" citt e molte mappe per il viaggio. La visita dura un'ora."
    )
    assert page_language_is_clear(italian)
    assert _own_word_hits(italian, frozenset({"italian"})) == {}
    assert _own_word_hits(italian, frozenset({"catalan"}))["italian"] == 3  # il dal della
    # A winner in an encoding the words' language is served in: no change (Romanian in
    # ISO-8859-2 or windows-1250; Romanian has no usual encoding of its own here).
    assert usual_encodings("german") == {"windows-1252", "ISO-8859-15"}
    assert usual_encodings("czech") == {"windows-1250", "ISO-8859-2"}
    assert usual_encodings("romanian") == frozenset()


AFRIKAANS = [
    # `ê` the only non-ASCII letter: windows-1250 read `lęer`, `sę` (all four read so before).
    "Die lêer is nie gevind nie. Kies asseblief 'n ander lêer en probeer weer.",
    "Hy sê hy kan nie kom nie, want hy is siek.",
    "Wat sê jy? Ek het nie gehoor wat hulle gesê het nie.",
    "Die lêer kon nie oopgemaak word nie. Ons sal dit môre weer probeer, want die stelsel is"
    " nou besig.",
    "Die kinders het geëet en is toe na die skool toe. Sy sê die onderwyser was nie daar nie,"
    " en hulle moet môre vroeg terugkom vir die toets.",
]
OCCITAN = [
    # `è` before a vowel (`rèire`), `ò` and guillemets: windows-1257 read the first.
    "Lo dorsièr «fòtos» es void: lo rèire plan es pas trobat.",
    "Lo fichièr «data» es pas estat legit. La color de rèire plan es pas valida.",
    "La bibliotèca es dobèrta lo diluns. Los libres novèls son dins la sala granda, e la"
    " lectura es a gratis per totes los enfants del vilatge.",
    "Aquò es fòra de las limits de la carta: la rèire-plan es pas visible dins aqueste mòde.",
]


@pytest.mark.parametrize("url", [None, "http://example.co.za/", "http://example.com/"])
@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize("text", AFRIKAANS)
def test_afrikaans(text: str, encoding: str, url: str | None) -> None:
    # `ê` is windows-1250's Polish `ę` (`lęer`, `sę`): Afrikaans words and letters decide.
    assert decodes_right(html_page(text, encoding), encoding, url)


@pytest.mark.parametrize("url", [None, "http://example.fr/", "http://example.com/"])
@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize("text", OCCITAN)
def test_occitan(text: str, encoding: str, url: str | None) -> None:
    # Occitan writes `è` before a vowel (`rèire`), which the French and Italian spelling rule
    # counts against a reading, and `ò` (`fòra`): windows-1250 read `č` `ň`.
    assert decodes_right(html_page(text, encoding), encoding, url)


NORDIC = [
    # Finnish writes `š` `ž` in loanwords and names (ISO-8859-15 0xA8 0xB8), which windows-1257
    # reads as Danish `ø` `Ø`, a letter Finnish does not write (all three read so before the
    # Nordic languages had letters of their own).
    ("fi", "Pelaamme šakkia joka tiistai kirjastossa. Se on hauskaa, ja kaikki ovat"
     " tervetulleita, myös aloittelijat."),
    ("fi", "Matka Kambodžaan kesti kaksi viikkoa, ja se oli hieno kokemus. Kuvat ovat nyt"
     " verkossa."),
    ("fi", "Tšekki ja Slovakia olivat ennen yksi maa. Tämä kirja kertoo niiden historiasta, ja"
     " se on hyvä."),
    ("fi", "Ei tiedostoa. Valitse toinen tiedosto ja yritä uudelleen, kun levy on tyhjä."),
    ("se", "Biblioteket är öppet från måndag till fredag. Vi har nya böcker om stadens historia"
     " och kartor för resan."),
    ("dk", "Biblioteket er åbent fra mandag til fredag. Vi har nye bøger om byens historie, og"
     " kort til rejsen."),
    ("no", "Det er ikke mulig å lagre filen nå. Prøv igjen senere, eller velg en annen mappe."),
]  # fmt: skip


@pytest.mark.parametrize("tld", [None, "com", "country"])
@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize(("country", "text"), NORDIC)
def test_nordic_languages(country: str, text: str, encoding: str, tld: str | None) -> None:
    url = tld and f"http://example.{country if tld == 'country' else tld}/"
    assert decodes_right(html_page(text, encoding), encoding, url)


def test_no_tied_readings_is_no_error() -> None:
    german = b"<p>die und der das ist nicht ein eine zu den von mit auf dem"
    assert prefer_clear_page_language(german, [], 0.0, ("windows-1252",), german) == []


# A page of Spanish words whose letters (`ó á í é ú`) read alike in windows-1252 and ISO-8859-2,
# Czech letters there, and score a little higher as Czech.
SPANISH_CONTENTS = (
    "1.1. Relación de programas 1.2. Relación de paquetes de la versión estable 1.3. Relación"
    " entre la publicación y la distribución 1.4. Operaciones básicas de gestión 1.5. Opciones"
    " de la línea de órdenes 1.6. Relación de combinaciones de teclas 1.7. La clasificación de"
    " la vista 1.8. Relación de fórmulas de búsqueda 1.9. Relación de herramientas 2.1."
    " Relación de cargadores de arranque 2.2. Significado de la entrada del menú 2.3. Relación"
    " de sistemas de la técnica de configuración."
)


@pytest.mark.parametrize("url", [*URLS, "http://www.example.es/"])
@pytest.mark.parametrize("encoding", ["windows-1252", "ISO-8859-15"])
@pytest.mark.parametrize(
    "tail",
    [
        " La entrada «» está vacía.",  # ISO-8859-2 `Ťť`: a word of no ASCII letter
        " Escriba « » aquí.",  # `Ť` and `ť` alone
        " El contenido de la entrada es «».",
    ],
)
def test_signs_in_no_word_are_no_foreign_name(tail: str, encoding: str, url: str | None) -> None:
    # The letters of a foreign name stay letters; bytes that stand in no word with an ASCII
    # letter are no name's, and the clear Spanish words decide.
    assert decodes_right(html_page(SPANISH_CONTENTS + tail, encoding), encoding, url)

