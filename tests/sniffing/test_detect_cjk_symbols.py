"""A few CJK symbols on an English page of a Chinese, Japanese or Korean site: an arrow in a
menu path (`Edit → Clear`), a figure's `図`, corner quotes around a button's name, a degree
sign. Their bytes are too few for statistics; a single-byte reading made letters of them
(GBK's `→` as x-mac-cyrillic's `°ъ`, EUC-JP's `図` as EUC-KR's `왼`) that nothing on the page
says. Where the TLD's locale encoding is a CJK one and the page's words are English or of no
language, the TLD's language decides: its encoding, or for Japanese EUC-JP where Shift_JIS
reads the pairs as half-width katakana (`ｿﾞ` for `図`). Real bytes, decoded by
``decode_html``; the texts are this project's own."""

from __future__ import annotations

import pytest

from tests.support.pages import decodes_right, html_page

ENGLISH = [
    "You can reach this command from the image menu bar through Edit → Clear, or with Delete.",
    "Report a bug in the program. The figure below shows the dialog for the mode → RGB.",
    "Press the Ctrl key to turn the layer by 15° at a time, then release it when you are done.",
]
JAPANESE_SYMBOLS = [
    "図17.15 The dialog of the Lens Blur filter and its options",
    "These are the common features described in 「Colors Common Features」 of the manual.",
    "You can save the settings you have by pressing the 「+」 button in the dialog.",
]


# (Big5's `°` is 0xA2 then an ASCII `X`, a lone byte between ASCII ones: read as Latin text,
# windows-1252's `¢X`, as Shift_JIS symbols with an ASCII second byte are: not covered.)
@pytest.mark.parametrize(
    ("text", "encoding", "host"),
    [
        *((text, "GBK", "www.example.cn") for text in ENGLISH),
        *((text, "EUC-KR", "www.example.kr") for text in ENGLISH),
        *((text, "Big5", "www.example.tw") for text in ENGLISH if "°" not in text),
    ],
)
def test_symbols_on_an_english_page_read_in_the_tld_encoding(
    text: str, encoding: str, host: str
) -> None:
    assert decodes_right(html_page(text, encoding), encoding, f"http://{host}/")


@pytest.mark.parametrize("text", JAPANESE_SYMBOLS)
def test_euc_jp_symbols_on_a_japanese_site_read_as_euc_jp(text: str) -> None:
    assert decodes_right(html_page(text, "EUC-JP"), "EUC-JP", "http://www.example.jp/")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Het programma is één keer gestart en de gebruiker heeft het één keer gesloten.",
         "windows-1252"),
        ("Die Größe der Datei ist zu groß für das Gerät und die Übertragung.", "windows-1252"),
    ],
)
def test_a_page_whose_words_say_their_language_keeps_its_letters(text: str, encoding: str) -> None:
    # Dutch and German words on a Korean or Japanese site: the words decide, not the TLD.
    for host in ("www.example.kr", "www.example.jp", "www.example.cn"):
        assert decodes_right(html_page(text, encoding), encoding, f"http://{host}/")


def test_a_heading_of_two_characters_twice_is_read_on_the_tld() -> None:
    # GBK's `附录` ("appendix") is valid EUC-KR `맒쩌`, two syllables of KS X 1001 (its share
    # of typical Hangul is full): two different letters say little; Japanese kana on .cn
    # (tests/sniffing/test_detect.py) say more.
    text = "附录 D. Tone mapping with the program’s “Exposure” tool. 附录 D. Tone mapping"
    assert decodes_right(html_page(text, "GBK"), "GBK", "http://www.example.cn/")
