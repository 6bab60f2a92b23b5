"""Genuine sentences in many languages, and the same sentences garbled the ways scrapers garble
them: UTF-8 bytes read as windows-1252, ISO-8859-1 (C1 controls), windows-1251 or windows-1250,
read wrongly twice, one line of several, and garbled text next to genuine text.

Shared by the quality tests and ``benchmarks/eval_mojibake.py``. The sentences were written for
this project; the garbling uses the project's own WHATWG decoders (a browser's reading).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from scrapy_charset.encoding import decode, lookup

GENUINE: dict[str, list[str]] = {
    "en": [
        "The café’s “special” costs €4.50 — a bargain, isn’t it?",
        "Chapter 3… in which Emily Brontë’s “Wuthering Heights” is discussed.",
        "Temperature: 21 °C ± 0.5 °C; area 12 m² • price £30",
        "AHÅ™ and ©2024 ACME® are trademarks — see “Legal”.",
    ],
    "fr": [
        "Le garçon a mangé une crème brûlée à la française.",
        "« Où est la bibliothèque ? » demanda-t-elle, déjà très fâchée.",
        "L’ÉTÉ À PARIS : ÇA VA, MERCI ! Noël approche.",
    ],
    "de": [
        "Die Größe der Straße übertrifft alle Erwartungen.",
        "„Schöne Grüße aus Köln“, schrieb Jürgen – wie immer.",
        "ÄRGER ÜBER DIE MÖBEL: ÖFFNUNGSZEITEN GEÄNDERT!",
    ],
    "es": [
        "El niño comió una piña en el año pasado, ¿verdad?",
        "¡Qué día! La canción de José está en el «Top 10».",
    ],
    "pt": [
        "A informação está disponível em São Paulo e em Brasília.",
        "NÃO HÁ AÇÃO SEM REAÇÃO — disse o coração.",
    ],
    "it": ["Perché la città è così bella? Più caffè, per favore."],
    "nl": ["Het café in Zeeuws-Vlaanderen heeft een reünie georganiseerd."],
    "sv": [
        "Räksmörgås är gott på sommaren, särskilt i Göteborg.",
        "ÅRETS BÄSTA ÖL – ”NÄ”, SA HAN.",
    ],
    "fi": [
        "KESÄ\u00a02024 on VIELÄ… kaukana, mutta hyvää päivää!",
        "Hyvää yötä, näkemiin ja kiitos kaikesta.",
        "”NÄIN” SANOI HÄN: ”EI VIELÄ”.",
    ],
    "da": ["Blåbærgrød med fløde er en dansk ret, sagde Søren."],
    "no": ["Bjørnen gikk over den frosne innsjøen i Tromsø."],
    "is": ["Þórður og Ásdís fóru til Reykjavíkur í gær."],
    "pl": [
        "Zażółć gęślą jaźń — to zdanie zawiera wszystkie polskie litery.",
        "Cena wynosi 10 zł, a kość została w ogrodzie.",
        "ŁÓDŹ I GDAŃSK: ŚWIĘTO NIEPODLEGŁOŚCI!",
    ],
    "cs": [
        "Příliš žluťoučký kůň úpěl ďábelské ódy.",
        "Řeka teče přes město, řekl Jiří.",
        "ČESKÁ REPUBLIKA A ŘÍJEN: ŽÁDNÉ ZMĚNY.",
    ],
    "sk": ["Ďateľ ťukal do stromu a kôň sa pásol v údolí."],
    "hu": ["Árvíztűrő tükörfúrógép – ez a magyar pangram."],
    "ro": ["Științele și țările românești au o istorie bogată."],
    "hr": ["Čađava šuma i žuti đurđevak u proljeće."],
    "sl": ["Šolski čaj je žgečkljiv in poceni."],
    "tr": ["İstanbul’da güzel bir gün, şöyle çok güneşli ağaçlar."],
    "vi": [
        "Tiếng Việt là ngôn ngữ chính thức của Việt Nam.",
        "Hà Nội có nhiều hồ đẹp và phở ngon.",
    ],
    "ru": [
        "Привет, мир! Как у тебя дела?",
        "Я и ты в Москве, а он у реки.",
        "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    ],
    "uk": [
        "Їжак і ґудзик в Україні — це є щось.",
        "Він сказав, що Віра приїде у Вінницю. Рік тому Сім Ніч були в Рівному.",
        "Сіль і Цінь: Їх Ділить Річка, Вітер Ціну Не Знає.",
    ],
    "be": ["Вёска Віцебск, Сёння і Ўсё: Вельмі Дзякуй, Пётр."],
    "bg": ["Ясно е, че тук има и други хора."],
    "sr": ["Ђорђе и Љубица су у Београду."],
    "el": [
        "Γεια σου κόσμε, τι κάνεις σήμερα;",
        "Η λ-έκφραση και ο π είναι γνωστά στα μαθηματικά.",
        "Ο Α και ο Β είναι φίλοι.",
    ],
    "he": ["שלום עולם, מה שלומך היום?"],
    "ar": ["مرحبا بالعالم، كيف حالك اليوم؟"],
    "hi": ["नमस्ते दुनिया, आज आप कैसे हैं?"],
    "th": ["สวัสดีชาวโลก วันนี้คุณเป็นอย่างไรบ้าง"],
    "ja": ["東京都の価格は１,０００円〜２,０００円です。", "日本語のテキストを正しく読む。"],
    "zh": ["这是一个中文句子，包含标点符号。", "價格：一千元。"],
    "ko": ["안녕하세요, 세계! 오늘 날씨가 좋네요."],
    "mixed": [
        "Größe: 5 μm, λ = 500 nm, ±3 %",
        "Ōsaka, Kōbe and Tōkyō are cities; São Tomé too.",
        "Café • Bar — «Chez Zoë» ™",
    ],
}

MISREADINGS = ("windows-1252", "iso-8859-1", "windows-1251", "windows-1250")


def misread(text: str, label: str) -> str:
    """``text``'s UTF-8 bytes decoded as ``label``, as a browser decodes (ISO-8859-1 is taken
    literally here, C1 controls and all, the way Python's ``latin-1`` codec reads it)."""
    data = text.encode("utf-8")
    if label == "iso-8859-1":
        return data.decode("latin-1")
    encoding = lookup(label)
    assert encoding is not None
    return decode(data, encoding)


def _all_sentences() -> list[tuple[str, str]]:
    return [(lang, text) for lang, texts in GENUINE.items() for text in texts]


def genuine() -> list[tuple[str, str]]:
    """(label, text) for every genuine sentence, plus a few multi-line texts."""
    cases = [(f"genuine/{lang}", text) for lang, text in _all_sentences()]
    sentences = [text for _, text in _all_sentences()]
    for i in range(0, len(sentences) - 3, 4):
        cases.append(("genuine/lines", "\n".join(sentences[i : i + 4])))
    return cases


def garbled() -> Iterator[tuple[str, str, str]]:
    """(label, garbled text, the genuine text) for each way of garbling each sentence that
    changes it (pure ASCII stays itself under every reading)."""
    sentences = _all_sentences()
    ways: list[tuple[str, Callable[[str], str]]] = [
        (label, lambda t, label=label: misread(t, label)) for label in MISREADINGS
    ]
    ways.append(("twice", lambda t: misread(misread(t, "windows-1252"), "windows-1252")))
    for index, (lang, text) in enumerate(sentences):
        lang = f"{lang}{index}"  # (unique labels)
        for way, garble in ways:
            damaged = garble(text)
            if damaged != text:
                yield f"{way}/{lang}", damaged, text
        other = sentences[(index + 7) % len(sentences)][1]
        # One line of several garbled (a feed item among good ones).
        lines = [other, text, sentences[(index + 3) % len(sentences)][1]]
        damaged_lines = [other, misread(text, "windows-1252"), lines[2]]
        if damaged_lines != lines:
            yield f"one-line/{lang}", "\n".join(damaged_lines), "\n".join(lines)
        # Garbled text next to genuine text on one line (a template around a bad field).
        if misread(text, "windows-1252") != text and not other.isascii():
            yield (
                f"mixed/{lang}",
                f"{other} | {misread(text, 'windows-1252')}",
                f"{other} | {text}",
            )
