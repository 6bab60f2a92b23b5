"""Record what Chromium does with pages whose charset label no browser knows.

Writes ``tests/data/chromium/unknown_labels.jsonl.gz`` (same row format as
``documents.jsonl.gz``, see ``record_documents.py``): text in encodings that have no Encoding
Standard label (DOS and Mac code pages, KOI8-T, KZ-1048, Johab, ...) and in standard
encodings under names the standard does not list (``latin9``, ``mac-roman``, ``cp949``,
``cp932``, ``latin-1``, ``win-1251``, ...), in many languages, short (about 300 bytes) and long
(about 3 KB), labelled in ``<meta charset>``, in the ``Content-Type`` header, or not at all.

Usage: ``python scripts/chromium/record_unknown_labels.py``
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "detection"))

from record_documents import ROOT, Doc, ct, page, record, write_rows  # noqa: E402
from samples import SAMPLES, long_form  # noqa: E402
from texts import TEXTS  # noqa: E402

OUT = ROOT / "tests" / "data" / "chromium" / "unknown_labels.jsonl.gz"

# Texts not in samples.py / texts.py, written for this fixture.
EXTRA = {
    "tg": "Китобхонаи шаҳр рӯзи шанбе ҳам кушода аст. Кӯдакон метавонанд китоб хонанд ва бозӣ "
    "кунанд, калонсолон қаҳва менӯшанд ва рӯзнома мехонанд. Тобистон дар боғ консертҳои ройгон "
    "мешаванд.",
    "kk": "Қаланың кітапханасы сенбі күні де ашық. Балалар кітап оқып, ойын ойнай алады, ал "
    "үлкендер кофе ішіп, газет оқиды. Жазда саябақта тегін концерттер өтеді, күзде көл жағасында "
    "жәрмеңке ұйымдастырылады.",
    "fr-euro": "Le bœuf coûte 12 € le kilo ; un vœu pour l'été, dit sa sœur. Au marché, les "
    "œufs frais sont à 3 € la douzaine et le cœur de bœuf à 9 €.",
}
# Typography the old code pages lack, as their writers typed it.
_PLAIN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "„": '"', "—": "-", "–": "-",
                        "…": "...", "«": '"', "»": '"'})  # fmt: skip


def writable(text: str, codec: str) -> str:
    """``text`` with each letter ``codec`` lacks written without its accent (À -> A)."""
    out = []
    for char in text:
        try:
            char.encode(codec)
        except UnicodeEncodeError:
            char = unicodedata.normalize("NFD", char)[0]
            char.encode(codec)
        out.append(char)
    return "".join(out)


def text_of(language: str) -> str:
    if language in EXTRA:
        return EXTRA[language]
    if language in SAMPLES:
        return SAMPLES[language]
    return " ".join(TEXTS[language][1])


# (label as written, Python codec of the bytes, languages). Labels checked to be unknown to the
# Encoding Standard by the test that reads this fixture.
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("latin9", "iso8859_15", ("fr-euro", "de", "fi", "et")),
    ("mac-roman", "mac_roman", ("fr", "de", "es", "pt")),
    ("cp437", "cp437", ("fr", "de", "es")),
    ("cp850", "cp850", ("fr", "de", "es", "pt", "it")),
    ("cp852", "cp852", ("cs", "pl", "hu", "sk", "hr", "sl")),
    ("cp855", "cp855", ("ru", "sr", "bg")),
    ("cp857", "cp857", ("tr",)),
    ("cp860", "cp860", ("pt",)),
    ("cp861", "cp861", ("is",)),
    ("cp865", "cp865", ("da", "no")),
    ("cp862", "cp862", ("he",)),
    ("cp737", "cp737", ("el",)),
    ("cp869", "cp869", ("el",)),
    ("cp775", "cp775", ("lt", "lv")),
    ("cp1125", "cp1125", ("uk",)),
    ("koi8-t", "koi8_t", ("tg",)),
    ("kz-1048", "kz1048", ("kk",)),
    ("pt154", "ptcp154", ("kk",)),
    ("mac-cyrillic", "mac_cyrillic", ("ru", "uk")),
    ("mac-greek", "mac_greek", ("el",)),
    ("mac-turkish", "mac_turkish", ("tr",)),
    ("mac-iceland", "mac_iceland", ("is",)),
    ("mac-latin2", "mac_latin2", ("cs", "pl", "hu")),
    ("johab", "johab", ("ko",)),
    ("cp949", "cp949", ("ko",)),
    ("cp932", "cp932", ("ja",)),
    ("ujis", "euc_jp", ("ja",)),
    ("cp936", "gbk", ("zh-hans",)),
    ("cp950", "cp950", ("zh-hant",)),
    ("latin-1", "cp1252", ("fr", "de")),
    ("win-1251", "cp1251", ("ru", "bg")),
    ("win-1250", "cp1250", ("cs", "pl")),
    ("cp-1256", "cp1256", ("ar",)),
    ("tis620", "cp874", ("th",)),
    ("utf8mb4", "utf-8", ("fr", "ru")),
]
# Cases also labelled in the Content-Type header (and once with no label at all).
HEADER_CASES = {"latin9", "cp852", "cp850", "johab", "koi8-t", "cp1125", "mac-roman", "cp949"}


def docs() -> list[Doc]:
    out = []
    for label, codec, languages in CASES:
        for language in languages:
            text = writable(text_of(language).translate(_PLAIN), codec)
            short = text[:260].rsplit(" ", 1)[0]
            for size, marker in (("short", short), ("long", long_form(text, 3000, codec))):
                base = f"{label}-{language}-{size}"
                body = page(f'<meta charset="{label}">', marker).encode(codec)
                what = f"{language} in {codec} labelled {label}"
                out.append(Doc(f"meta-{base}", "meta", f"{what} (meta)", body,
                               true_encoding=codec, expected_marker=marker))  # fmt: skip
                if label in HEADER_CASES:
                    body = page("", marker).encode(codec)
                    header = ct(f"text/html; charset={label}")
                    out.append(Doc(f"header-{base}", "header", f"{what} (header)", body, header,
                                   true_encoding=codec, expected_marker=marker))  # fmt: skip
                    out.append(Doc(f"none-{base}", "none", f"{language} in {codec}, no label",
                                   body, true_encoding=codec, expected_marker=marker))  # fmt: skip
    return out


def main() -> int:
    write_rows(record(docs()), OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
