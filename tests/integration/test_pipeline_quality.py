"""The Scrapy-free text checks behind the pipeline: U+FFFD, mojibake, normalization."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.quality import (
    count_mojibake,
    count_replacements,
    find_mojibake,
    may_have_mojibake,
    normalize,
)

# Real sentences, as a careful writer would type them (typographic quotes and dashes included).
SENTENCES = {
    "fr": "Le cœur a ses raisons que la raison ne connaît point. « Ça va ? » — À bientôt, "
    "déjà l’été ; Noël à Orléans, façade, naïveté, Œuvres complètes.",
    "de": "Die Straße ist nur einen „Fuß“ breit, aber übermäßig schön. ÄRGER über Öl? "
    "Größe: 5 m², Temperatur 20 °C, Preis 3,50 €.",
    "pt": "A língua portuguesa é falada em São Paulo e em Lisboa; ação, coração, irmã, "
    "NÃO, “Olá!”, pão de açúcar, 1º lugar.",
    "vi": "Tiếng Việt là ngôn ngữ chính thức của Việt Nam, được viết bằng chữ Quốc ngữ; "
    "à, ơi, ư, đây là một câu thử nghiệm.",
    "tr": "Türkçe, Türkiye Cumhuriyeti’nin resmî dilidir; İstanbul’da ağaçlar çiçek açtı, "
    "ĞÜŞİÖÇ ve ğüşıöç harfleri.",
    "is": "Íslenska er þjóðtunga Íslendinga; Þórður fór út í bæ með ömmu sinni. "
    "Ég á hest, Æsir og Óðinn, Ýmir.",
    "es": "¿Qué tal, señor Muñoz? ¡Olé! El niño comió piñata en Cádiz.",
    "da": "Æbler, øl og blåbærgrød på Ærø; ÅRHUS og ØRESUND.",
    "ru": "Привет, мир! «Ёлка» — это праздник; съешь ещё этих мягких французских булок.",
    "uk": "Україна: Київ, їжак, Єва, Ґанок; СІЧ і ЇЖАК, «Ґава».",
    "el": "Καλημέρα κόσμε· η ελληνική γλώσσα είναι όμορφη.",
    "ja": "東京都の価格は１２３円です～〜「テスト」",
}

# Languages whose letters are all in Latin-1/Latin Extended-A, or encode as 3-byte UTF-8:
# every one of their non-ASCII characters must be found once mis-decoded.
EXACT = ("fr", "de", "pt", "tr", "is", "es", "da", "ja")


def misdecode(text: str, codec: str) -> str:
    """UTF-8 bytes of ``text`` read with a single-byte encoding, as a browser's decoder does.

    Bytes the Python codec leaves undefined become the C1 control of the same value, which is
    what the WHATWG indexes of windows-1252 and windows-1251 give for them.
    """
    return "".join(_byte_as_char(b, codec) for b in text.encode("utf-8"))


def _byte_as_char(byte: int, codec: str) -> str:
    try:
        return bytes([byte]).decode(codec)
    except UnicodeDecodeError:
        return chr(byte)


def non_ascii(text: str) -> int:
    return sum(1 for ch in text if not ch.isascii())


@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_genuine_text_has_no_mojibake(lang: str) -> None:
    text = SENTENCES[lang]
    assert find_mojibake(text) == []
    assert count_mojibake(unicodedata.normalize("NFD", text)) == 0


@pytest.mark.parametrize("lang", sorted(SENTENCES))
@pytest.mark.parametrize("codec", ["cp1252", "latin-1"])
def test_utf8_read_as_windows_1252_or_latin_1_is_found(lang: str, codec: str) -> None:
    text = SENTENCES[lang]
    damaged = misdecode(text, codec)
    found = find_mojibake(damaged)
    assert found, damaged
    for item in found:
        assert damaged[item.start : item.end] == item.text
        assert item.repaired in text
        assert item.misread_as == "windows-1252"
    if lang in EXACT:
        assert len(found) == non_ascii(text)
        # Putting every repair back gives the original sentence.
        repaired, last = [], 0
        for item in found:
            repaired += [damaged[last : item.start], item.repaired]
            last = item.end
        assert "".join(repaired) + damaged[last:] == text
    else:  # lone 2-byte letters of other scripts need a neighbour; most are still found
        assert len(found) >= 0.8 * non_ascii(text)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_cyrillic_utf8_read_as_windows_1251_is_found(lang: str) -> None:
    text = SENTENCES[lang]
    found = find_mojibake(misdecode(text, "cp1251"))
    assert found
    assert {item.misread_as for item in found} == {"windows-1251"}
    assert all(item.repaired in text for item in found)
    assert len(found) >= 0.9 * non_ascii(text)


def test_classic_examples() -> None:
    assert [m.repaired for m in find_mojibake("cafÃ© â€™ Ã¼ber")] == ["é", "’", "ü"]
    assert count_mojibake("Itâ€™s") == 1
    # Mojibake of mojibake: each layer is itself reversible.
    twice = misdecode(misdecode("é", "cp1252"), "cp1252")
    assert twice == "ÃƒÂ©"
    assert [m.repaired for m in find_mojibake(twice)] == ["Ã", "©"]


def test_lone_two_byte_repair_outside_latin_is_not_trusted() -> None:
    # "ß“" reads back as U+07D3 (NKo): chance, not mojibake. Two in a row look like a word.
    assert count_mojibake("„Fuß“") == 0
    assert count_mojibake(misdecode("Ωμ", "cp1252")) == 2


def test_invalid_utf8_sequences_are_not_counted() -> None:
    # Overlong (C0/C1 leads, E0 80..), surrogates (ED A0..), and truncated sequences.
    for text in ("Ã", "Ã ", "â€", "à€€", "í €", "Àª", "Áª", "ô\x90\x80\x80"):
        assert count_mojibake(text) == 0, text


def test_fast_paths() -> None:
    assert not may_have_mojibake("plain ASCII text")
    assert not may_have_mojibake("déjà vu, naïve café")
    assert may_have_mojibake("cafÃ©")
    assert count_replacements("abc") == 0
    assert count_replacements("a\ufffdb\ufffd") == 2


def _misreading_chars(codecs: tuple[str, ...], lo: int, hi: int) -> set[str]:
    return {_byte_as_char(byte, codec) for codec in codecs for byte in range(lo, hi + 1)}


# For each misreading: the characters UTF-8 lead bytes (C2-F4) and continuation bytes (80-BF)
# turn into. Mojibake is always a lead character directly followed by a continuation one.
_MISREAD_AS = [
    (_misreading_chars(codecs, 0xC2, 0xF4), _misreading_chars(codecs, 0x80, 0xBF))
    for codecs in (("cp1252", "latin-1"), ("cp1251",))
]


def test_prefilter_is_true_exactly_for_a_lead_followed_by_a_continuation_character() -> None:
    others = ["a", " ", "\x7f", "Ā", "ế", "İ", "ı", "Ж", "я", "東", "１", "\ufffd", "\ud800", "😀"]
    chars = sorted(set().union(*(leads | cont for leads, cont in _MISREAD_AS)) | set(others))
    for first in chars:
        for second in chars:
            expected = any(first in leads and second in cont for leads, cont in _MISREAD_AS)
            for text in (first + second, f"ab{first}{second}", f"東{first}{second}é"):
                assert may_have_mojibake(text) is expected, text


# Fragments of genuine text (Latin-1 letters, Vietnamese, Turkish, Japanese, Cyrillic,
# typography) and of its mojibake, cut anywhere and glued together in any order.
_SOURCES = sorted(
    {*SENTENCES.values(), "’“”„–—…•€™ «»\xa0©®°±µ·¿ŒœŠšŸŽžƒˆ˜№", "\x80\x81\x8d\x9f\ud800"}
    | {misdecode(text, codec) for text in SENTENCES.values() for codec in ("cp1252", "cp1251")}
    | {misdecode(text, "latin-1") for text in SENTENCES.values()}
)


@st.composite
def _fragments(draw: st.DrawFn) -> str:
    source = draw(st.sampled_from(_SOURCES))
    start = draw(st.integers(0, len(source)))
    return source[start : start + draw(st.integers(1, 8))]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(_fragments(), st.text(max_size=2)), max_size=8).map("".join))
def test_prefilter_never_misses_mojibake(text: str) -> None:
    # False from the cheap check must mean the full search finds nothing.
    if not may_have_mojibake(text):
        assert find_mojibake(text, prechecked=True) == [], text
        assert count_mojibake(text) == 0


def test_nfkc_folds_fullwidth_digits_and_fullwidth_tilde_but_not_wave_dash() -> None:
    assert normalize("１２３", "NFKC") == "123"
    assert normalize("１２３", "NFC") == "１２３"
    assert normalize("\uff5e", "NFKC") == "~"  # FULLWIDTH TILDE -> TILDE
    assert normalize("\u301c", "NFKC") == "\u301c"  # WAVE DASH has no compatibility mapping
    assert normalize("\uff5e", "NFKC") != normalize("\u301c", "NFKC")
    assert normalize("ｉＰｈｏｎｅ　１５", "NFKC") == "iPhone 15"  # ideographic space too
    assert normalize("ｶﾞ", "NFKC") == "ガ"  # halfwidth katakana + voiced mark compose
    assert normalize("™", "NFKC") == "TM"
    assert [normalize(c, "NFKC") for c in "…ﬁ²"] == ["...", "fi", "2"]
    assert [normalize(c, "NFC") for c in "…ﬁ²"] == ["…", "ﬁ", "²"]
    assert normalize("e\u0301", "NFC") == "é"
    assert normalize("é", "NFD") == "e\u0301"
    text = "already normal"
    assert normalize(text, "NFKC") is text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["東京", "Привет", "Größe", "é", " ", "a", "’", "Ã©", "Ä…", "\n", "KESÄ\u00a0", "ŸŽ"]
        ),
        max_size=10,
    ).map("".join),
    st.sampled_from(["latin-1", "cp1252", "cp1251", "cp1250"]),
)
def test_whole_garbled_words_are_counted_character_by_character(text: str, codec: str) -> None:
    """Adjacent mis-decoded characters are taken a word at a time; the count, the records and
    their order must be those of one character at a time."""
    garbled = text.encode("utf-8").decode(codec, errors="replace")
    found = find_mojibake(garbled)
    assert count_mojibake(garbled) == len(found)
    for record in found:
        assert len(record.repaired) == 1
        assert garbled[record.start : record.end] == record.text
        assert len(record.text) == len(record.repaired.encode("utf-8"))
    assert [r.start for r in found] == sorted(r.start for r in found)
