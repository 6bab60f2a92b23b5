"""The language of a page's ASCII words, where a few non-ASCII bytes cannot say it: ISO-8859-16's
`„da”` among Romanian words (ISO-8859-2 reads Slovak `Ľdaľ`), windows-1250 `costă` (windows-1252
`costã`, Portuguese), Czech ISO-8859-2 `ž` (windows-1250 `ľ`, Slovak). Real bytes, decoded by
``decode_html``."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import decode, get_encoding
from scrapy_charset.sniffing import decode_html
from scrapy_charset.sniffing.letters import (
    CANDIDATES,
    page_languages,
    prefer_page_language,
    ranked_readings,
)
from tests.support.pages import html_page


def _decoded_as(body: bytes, url: str | None = None) -> str:
    return decode_html(body, url=url)[1].encoding.name


_ROMANIAN = "Programul este de luni pana vineri. Magazinul are multe produse noi si preturi mici."


@pytest.mark.parametrize("url", [None, "http://www.example.ro/"])
@pytest.mark.parametrize(
    "text",
    [
        f"Un „da” ferm, spune ea. {_ROMANIAN}",
        f"{_ROMANIAN} Ea a spus „nu” si a plecat.",
        f"{_ROMANIAN} {_ROMANIAN} Cartea „Vara” este pentru copii.",
    ],
)
def test_romanian_quotes_are_no_slovak_letters(url: str | None, text: str) -> None:
    """ISO-8859-16's `„ ”` are the only non-ASCII bytes: ISO-8859-2 reads them as Slovak `Ľ ľ`
    (letters outscore signs), the Romanian words choose the reading that is Romanian."""
    body = html_page(text, "ISO-8859-16")
    assert decode_html(body, url=url)[0] == decode(body, get_encoding("ISO-8859-16"))


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        (
            "Magazinul are multe produse noi. Un „da” ferm, spune ea. Biletul costă 12 €.",
            "windows-1250",
        ),
        ("Noi am spus „da” si ea are biletul, care costă 12 € acum.", "windows-1250"),
        ("Magazinul are multe produse noi. Biletul costă 12 €. Ea are doar unul.", "ISO-8859-16"),
    ],
)
def test_romanian_a_breve_among_romanian_words_without_a_url(text: str, encoding: str) -> None:
    """`ă` ties with windows-1252's (ISO-8859-15's) Portuguese `ã`; the Romanian words (`are`,
    `ea`, `noi`) decide without a TLD."""
    assert _decoded_as(html_page(text, encoding)) == encoding


_CZECH_WORDS = "Vlaky jsou tady a listky jsou pro kazdeho."
_SHARED_WORDS = " Pokladna je otevrena od rana do vecera, od pondeli do patku a na webu to je."


@pytest.mark.parametrize("last", ["Kde je nádraží?", "Cena je nízká, je to zážitek."])
def test_czech_words_read_z_as_czech(last: str) -> None:
    """ISO-8859-2 `ž` is windows-1250 `ľ`: letters of Slovak, which Czech does not have. Words
    only Czech has (`jsou`, `pro`), far from the letters, make the reading Czech."""
    body = html_page(f"{_CZECH_WORDS}{_SHARED_WORDS * 2} {last}", "ISO-8859-2")
    assert _decoded_as(body) == "ISO-8859-2"


def test_words_czech_and_slovak_share_leave_the_encoding_served() -> None:
    """Without a word only Czech has, the page may be Slovak (`ľ`): windows-1250, as before.
    (ISO-8859-2 `veža` is windows-1250 `veľa`, Slovak words both. `nádraží` is no longer the
    example: its windows-1250 reading `nádraľí` has a `ľ` before `í`, which Slovak spells
    `l`, so it is Czech: test_detect_spelling.py.)"""
    body = html_page(f"{_SHARED_WORDS.strip()} Kde je veža?", "ISO-8859-2")
    assert _decoded_as(body) == "windows-1250"


def test_slovak_words_keep_windows_1250_l_with_caron() -> None:
    text = "Vlaky sú tu a listky sú pre kazdeho, ako aj mapy. Kde je ľad?"
    assert _decoded_as(html_page(text, "windows-1250")) == "windows-1250"


def test_a_foreign_name_among_romanian_words_keeps_its_letters() -> None:
    """Every non-ASCII byte must read as the words' language: ISO-8859-16 would turn the `Ľ` of
    a Slovak name into `„` but leaves its `í`, foreign to Romanian."""
    body = html_page(f"{_ROMANIAN} Ne vedem cu Ľubomír la gara.", "ISO-8859-2")
    assert decode_html(body)[0] == decode(body, get_encoding("ISO-8859-2"))


def test_many_letters_outweigh_the_words() -> None:
    """With sixteen non-ASCII bytes or more, the letters say the language themselves."""
    sample = html_page(_ROMANIAN + " „da”" * 8, "ISO-8859-16")
    tied = list(ranked_readings(sample).best)
    assert tied == ["ISO-8859-2"]
    assert prefer_page_language(sample, tied, CANDIDATES, sample) == tied
    few = html_page(_ROMANIAN + " „da”", "ISO-8859-16")
    assert prefer_page_language(few, ["ISO-8859-2"], CANDIDATES, few) == ["ISO-8859-16"]


def test_page_languages_count_text_words_only() -> None:
    romanian = html_page(_ROMANIAN, "ISO-8859-16")
    assert {"romanian", "romanian with cedilla"} <= page_languages(romanian)
    # Words of markup, scripts and styles are no text (`do`, `in`, `de` of code and URLs).
    markup = (
        b"<html><head><script>do { x.de = 1 } while (x in y)</script><style>p { margin: 0 }"
        b'</style></head><body><a href="/de/la/de/la/">Home</a> <p lang="de">Caf\xe9</p>'
    )
    assert page_languages(markup) == frozenset()
    # English says no language (the words it shares with others, `to` `no`, do not count).
    english = b"<p>Welcome to our site, no booking fee. Caf\xe9 open to all.</p>"
    assert page_languages(english) == frozenset()
    # One word may be a name or a quotation.
    assert page_languages(b"<p>Myslisz, \xbfe on przyjdzie?</p>") == frozenset()


@pytest.mark.parametrize("url", [None, "http://www.example.it/"])
@pytest.mark.parametrize(
    "text",
    [
        "La conversione dal tipo al tipo esiste già per Šentjernej e per gli altri.",
        "Il file non è stato salvato per Šentjernej e per gli altri, e la cartella non esiste.",
    ],
)
def test_a_foreign_name_among_clearly_italian_words_leaves_their_letters(
    url: str | None, text: str
) -> None:
    """Italian `à` `è` beside a Slovene place name (`Šentjernej`): windows-1250 reads them as
    `ŕ` `č`, letters of the name's languages, which outscore Italian with a foreign `Š`. Where
    the words say their language clearly, the reading that gives them their letters and the
    name a letter of another of its languages is chosen."""
    body = html_page(text, "windows-1252")
    assert decode_html(body, url=url)[0] == decode(body, get_encoding("windows-1252"))


def test_a_few_words_shared_with_another_language_say_none_clearly() -> None:
    """Croatian words with `uz` three times (a Latvian word too): the page does not clearly say
    Latvian, so windows-1257 (which reads `Č č` and `đ` as Latvian `Č č š`) is not taken
    for the ISO-8859-2 text."""
    text = (
        "Čitati besplatni knjige igre knjige piju? Otvorena održavaju priređuje parku uvijek uz"
        " čitaju a mogu subotom ujesen uz! Ćevapi prozor sajam knjige časopise uz veliki"
        " održavaju mogu održavaju koji priređuje?"
    )
    body = html_page(text, "ISO-8859-2")
    assert decode_html(body, url="http://www.example.hr/")[0] == decode(
        body, get_encoding("ISO-8859-2")
    )


def test_words_of_a_script_cut_by_the_words_window_do_not_count() -> None:
    # The window of words around the first non-ASCII byte may end inside a script or begin
    # inside one: its words are no text either way.
    script = "var je = na(to, sa); " * 40
    start_cut = f"<p>Hi podran entrar gratuïtament, la biblioteca.</p><script>{script}".encode(
        "cp1252"
    )
    assert "slovak" not in page_languages(start_cut)
    end_cut = f"{script}</script><p>Bon dia a tothom.</p>".encode("cp1252")
    assert "slovak" not in page_languages(end_cut)


@pytest.mark.parametrize("url", [None, "http://www.example.se/"])
def test_swedish_a_ring_is_no_slovak_l_acute(url: str | None) -> None:
    """windows-1250 reads Swedish `å` as `ĺ` and keeps `ä` (and a Zapotec name's `í`): Slovak
    writes `ä` and `ĺ` (a few in ten thousand letters), so they count as its rare letters, not
    its frequent ones, and the Swedish text stays windows-1252."""
    text = (
        'Yitha Yitha Rysk (Kazakstan, med kazakiska) Zapotec, Lapaguía-Guivini kolumnlista får'
        ' inte anges i ALTER PUBLICATION ... DROP data: dubbla definitioner av "data"'
        " systemregister kan inte inkluderas i listan skapar grund klon med djupet data Kan inte"
        " lista ut namnet på toppkatalogen, sätt det explicit med --one-top-level=KATALOG"
        " refreshalternativ Felaktigt tillstånd"
    )
    body = html_page(text, "windows-1252")
    assert decode_html(body, url=url)[0] == decode(body, get_encoding("windows-1252"))
