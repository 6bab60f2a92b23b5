"""Detection and repair of mojibake on genuine sentences in many languages and the same
sentences garbled every way scrapers garble them (tests/support/mojibake_corpus.py)."""

from __future__ import annotations

import pytest

from scrapy_charset import quality
from scrapy_charset.quality import count_mojibake, find_mojibake, repair, repair_spans
from tests.support.mojibake_corpus import garbled, genuine, misread

GARBLED = list(garbled())
# Left alone on purpose: the genuine Finnish capitals "VIELÄ”" sit right next to the garbled
# text, so the ambiguous "Ä”" is repaired with it.
KNOWN_MISSES = {"mixed/pt13"}


@pytest.mark.parametrize("text", [t for _, t in genuine()], ids=[c for c, _ in genuine()])
def test_genuine_text_is_not_flagged_and_not_changed(text: str) -> None:
    assert find_mojibake(text) == []
    assert count_mojibake(text) == 0
    assert repair(text) is text
    assert repair_spans(text) == text


@pytest.mark.parametrize(
    "damaged, truth",
    [
        pytest.param(d, t, marks=[pytest.mark.xfail(strict=True)] if c in KNOWN_MISSES else [])
        for c, d, t in GARBLED
    ],
    ids=[c for c, _, _ in GARBLED],
)
def test_garbled_text_is_found_and_repaired_exactly(damaged: str, truth: str) -> None:
    assert count_mojibake(damaged) > 0
    assert repair_spans(damaged) == truth  # without ftfy
    assert repair(damaged) == truth  # with ftfy (the test extra installs it)


@pytest.mark.parametrize(
    "text",
    [
        "KESÄ\u00a02024 on VIELÄ… kaukana",  # a capital and a no-break space, an ellipsis
        "”NÄ”, SA HAN",
        "AHÅ™, the new sofa",
        "Charlotte Brontë…”",  # three characters that read as a Korean syllable
        "ВІКІ is Ukrainian for WIKI",  # would read as "²ʲ"
        "a radius of 10 Å—",
        "Offering 5×£35 pin ups",
        "ESSE CARA AI QUEM É¿",
    ],
)
def test_capitals_next_to_punctuation_are_not_mojibake(text: str) -> None:
    assert count_mojibake(text) == 0
    assert repair(text) is text


@pytest.mark.parametrize(
    "word",
    # A capital and a letter of windows-1251's continuation bytes (і ї є ґ ё ў ј љ њ ...),
    # then a lowercase letter: the capital and that letter read as a character of UTF-8.
    ["Він", "Віра", "Рік", "Сіль", "Ніч", "Ціна", "Річка", "Сёння", "Вёска", "Тёплы", "Дєд"],
)
def test_capitalised_cyrillic_words_are_not_mojibake(word: str) -> None:
    """Ukrainian and Belarusian words are no evidence, however many ("Рі" would read as "г",
    "Ві" as "³"), and a garbled word next to them is still found and repaired."""
    text = f"{word} і {word}, {word}: {word}!"
    assert count_mojibake(text) == 0
    assert repair(text) is text
    garbled_word = misread("Привіт", "windows-1251")
    assert count_mojibake(f"{text} {garbled_word}") == len("Привіт")
    assert repair_spans(f"{text} {garbled_word}") == f"{text} Привіт"


@pytest.mark.parametrize(
    "truth, label",
    [
        ("Příliš žluťoučký kůň úpěl ďábelské ódy.", "windows-1250"),
        ("Liège, avenue de l’Hôpital", "windows-1250"),
        ("Le garçon a mangé une crème brûlée.", "windows-1251"),  # Latin text
        ("Die Größe der Straße übertrifft alles.", "windows-1251"),
        ("Я и ты", "windows-1252"),  # one-letter words
        ("Он и я у реки", "windows-1252"),
        ("IL2Rγc mice", "windows-1252"),  # a lone Greek letter inside a word
        ("Ο Α και ο Β", "windows-1252"),
    ],
)
def test_each_misreading_class_is_repaired(truth: str, label: str) -> None:
    damaged = misread(truth, label)
    found = find_mojibake(damaged)
    assert found and {m.misread_as for m in found} == {label}
    assert repair_spans(damaged) == truth
    assert repair(damaged) == truth


def test_repair_without_ftfy_uses_the_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quality, "_FTFY", False)  # as if the extra were not installed
    damaged = misread("Crème brûlée — déjà", "windows-1252")
    assert repair(damaged) == "Crème brûlée — déjà"
    # ftfy alone knows MacRoman: without it that stays as it is.
    assert repair("g√¢teaux") == "g√¢teaux"


def test_repair_with_ftfy_also_fixes_what_only_ftfy_knows() -> None:
    pytest.importorskip("ftfy")
    truth = "Le médecin conseille des gâteaux et un régime équilibré."
    assert repair(truth.encode().decode("mac_roman")) == truth
    assert repair("Hi guys í\xa0½í¸\x8d") == "Hi guys 😍"  # CESU-8 emoji


def test_twice_garbled_text_is_repaired_in_rounds() -> None:
    damaged = misread(misread("Größe", "windows-1252"), "windows-1252")
    assert repair_spans(damaged) == "Größe"
    assert repair_spans(damaged, rounds=1) == misread("Größe", "windows-1252")
