"""Chromium's answers for classes the other recordings leave unclear (new texts, split ``probe``).

Writes ``tests/data/chromium/unknown_labels_classes.jsonl.gz`` (row format of
``unknown_labels_more.jsonl.gz``): pages labelled in ``<meta>`` with a name no browser knows,
served from 127.0.0.1 and from the language's country TLD:

- Russian DOS (866) text with tables drawn tight against the words (``║Имя║``): does a box
  character next to a letter make Chromium give up IBM866?
- Mac Roman text in languages whose letters windows-1250 also reads as letters, with and
  without one bullet (``•`` is 0xA5: ``¥`` in windows-1252, ``Ą`` in windows-1250), and
  Danish/Norwegian with many or few ``æ ø``.
- English DOS text with a dozen non-ASCII bytes, Slovak/Slovene/Czech DOS 852 text, and
  DOS 855 text, short and long; Greek DOS 869 and Mac Greek, Baltic DOS 775 and
  Mac Central European in more texts.

Usage: ``python scripts/chromium/probe_classes.py`` (with Playwright; see README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

sys.path.insert(0, str(Path(__file__).parents[1] / "detection"))

from fresh_texts import FRESH  # noqa: E402
from probe_unknown_labels import writable  # noqa: E402
from record_documents import ROOT, Doc, page, record, write_rows  # noqa: E402
from samples import SAMPLES  # noqa: E402
from texts import TEXTS  # noqa: E402

OUT = ROOT / "tests" / "data" / "chromium" / "unknown_labels_classes.jsonl.gz"

RU_TABLE_DOUBLE = (
    "Расписание поездов на сегодня, вторник.\n"
    "╔════════╦══════════╦═══════╗\n"
    "║Поезд   ║Куда      ║Время  ║\n"
    "╠════════╬══════════╬═══════╣\n"
    "║Экспресс║Москва    ║10:15  ║\n"
    "║Скорый  ║Тверь     ║11:40  ║\n"
    "║Ночной  ║Петербург ║23:05  ║\n"
    "╚════════╩══════════╩═══════╝\n"
    "Билеты продаются в кассах вокзала и через интернет, справки по телефону."
)
RU_TABLE_SINGLE = (
    "Итоги года по отделам.\n"
    "┌──────┬──────┬─────┐\n"
    "│Отдел │План  │Факт │\n"
    "├──────┼──────┼─────┤\n"
    "│Продажи│120  │134  │\n"
    "│Склад │80    │77   │\n"
    "│Итого │200   │211  │\n"
    "└──────┴──────┴─────┘\n"
    "Отчёт подготовлен бухгалтерией и утверждён директором на общем собрании."
)
RU_TABLE_TIGHT = (
    "Список участников:\n"
    "╒═══╤══════════╕\n"
    "│№  │Фамилия   │\n"
    "╞═══╪══════════╡\n"
    "│1  │Иванов    │\n"
    "│2  │Петров    │\n"
    "╘═══╧══════════╛\n"
    "╓───╥──────────╖\n"
    "║3  ║Сидоров   ║\n"
    "╙───╨──────────╜\n"
    "Всех просим прийти к девяти часам утра."
)
MAC_BULLET = {
    "de-bullet": "• Gestern Abend hat der Bäcker an der Ecke früher geschlossen als sonst. "
    "Die Nachbarn waren besorgt, aber er feierte nur den Geburtstag seiner Tochter.",
    "sv-bullet": "• I går kväll stängde bagaren i kvarteret tidigare än vanligt. "
    "Grannarna blev oroliga, men han hade bara gått för att fira sin dotters födelsedag.",
    "fi-bullet": "• Eilen illalla korttelin leipuri sulki liikkeensä tavallista aikaisemmin. "
    "Naapurit huolestuivat, mutta hän oli vain lähtenyt juhlimaan tyttärensä syntymäpäivää.",
    "nl-bullet": "• Gisteravond sloot de bakker op de hoek eerder dan normaal, één uur vroeger. "
    "De buren maakten zich zorgen over de oude man.",
    "en-bullet": "• The café on Mill Lane opens at eight. • Tea and toast are served until noon, "
    "and the terrace is open when the weather is fine.",
    "de": "Gestern Abend hat der Bäcker an der Ecke früher geschlossen als sonst. "
    "Die Nachbarn waren besorgt, aber er feierte nur den Geburtstag seiner Tochter.",
    "da-few": "I går aftes lukkede bageren tidligere end normalt. Naboerne blev bekymrede, "
    "men han var bare gået for at fejre sin datters fødselsdag.",
    "da-many": "Søndag går børnene på tur i skoven med deres bedsteforældre. Der er sø, æbletræer "
    "og små søde bær, og de spiser rødgrød med fløde før de går hjem.",
    "no-many": "På søndag går barna på tur i skogen med besteforeldrene sine. Der er sjø, "
    "epletrær og små søte bær, og de spiser rømmegrøt før de går hjem igjen.",
    "no-fresh-bullet": "• " + FRESH["no"],
    "da-fresh-bullet": "• " + FRESH["da"],
}
EN_DOS = (
    "The café on Mill Lane charges £4.50 for a pot of tea. Opening hours change in winter; "
    "the terrace closes at 6 pm. The owner, Mr Müller, says the crème brûlée is the best in "
    "town, and the jalapeño toast costs £3. Ask for the menu in the naïve-art room."
)
# (id, label, codec, text, country TLD)
PROBES: list[tuple[str, str, str, str, str]] = [
    ("ru-table-double", "dos-866", "cp866", RU_TABLE_DOUBLE, "ru"),
    ("ru-table-single", "dos-866", "cp866", RU_TABLE_SINGLE, "ru"),
    ("ru-table-tight", "dos-866", "cp866", RU_TABLE_TIGHT, "ru"),
    ("ru-plain", "dos-866", "cp866", FRESH["ru"], "ru"),
    *((f"{key}", "mac-roman", "mac_roman", text, key.split("-")[0]) for key, text in
      MAC_BULLET.items()),
    ("en-dos", "cp850", "cp850", EN_DOS, "uk"),
    ("en-dos-437", "cp437", "cp437", EN_DOS.replace("£", "$"), "com"),
    ("sk", "cp852", "cp852", FRESH["sk"], "sk"),
    ("sl", "cp852", "cp852", FRESH["sl"], "si"),
    ("cs", "cp852", "cp852", FRESH["cs"], "cz"),
    ("uk", "cp855", "cp855", FRESH["uk"], "ua"),
    ("ru", "cp855", "cp855", FRESH["ru"], "ru"),
    ("bg", "cp855", "cp855", FRESH["bg"], "bg"),
    # Greek in DOS 869 and Mac Greek, other texts (the recordings differ by text).
    ("el-sample", "cp869", "cp869", SAMPLES["el"], "gr"),
    ("el-texts", "cp869", "cp869", " ".join(TEXTS["el"][1]), "gr"),
    ("el-history", "cp869", "cp869", " ".join(TEXTS["el-history"][1]), "gr"),
    ("el-sample", "mac-greek", "mac_greek", SAMPLES["el"], "gr"),
    ("el-history", "mac-greek", "mac_greek", " ".join(TEXTS["el-history"][1]), "gr"),
    # Ukrainian DOS 855, other texts, from .ua.
    ("uk-texts", "cp855", "cp855", " ".join(TEXTS["uk"][1]), "ua"),
    ("uk-news", "cp855", "cp855", " ".join(TEXTS["uk-news"][1]), "ua"),
    # Latvian and Lithuanian in DOS 775 and Mac Central European, other texts.
    ("lt-texts", "cp775", "cp775", " ".join(TEXTS["lt"][1]), "lt"),
    ("lt-sample", "cp775", "cp775", SAMPLES["lt"], "lt"),
    ("lv-texts", "cp775", "cp775", " ".join(TEXTS["lv"][1]), "lv"),
    ("lt-texts", "mac-latin2", "mac_latin2", " ".join(TEXTS["lt"][1]), "lt"),
    ("lv-texts", "mac-latin2", "mac_latin2", " ".join(TEXTS["lv"][1]), "lv"),
]  # fmt: skip
TLD = {"sv": "se", "da": "dk", "en": "uk"}


def docs() -> list[Doc]:
    out = []
    for key, label, codec, text, tld in PROBES:
        tld = TLD.get(tld, tld)
        for size, repeat in (("short", 1), ("long", 8)):
            marker = "\n".join([writable(text, codec)] * repeat)
            body = page(f'<meta charset="{label}">', marker).encode(codec)
            for host in ("127.0.0.1", f"www.example.{tld}"):
                where = "ip" if host == "127.0.0.1" else tld
                doc = Doc(f"probe-{label}-{key}-{size}-{where}", "meta",
                          f"{key} in {codec} labelled {label} (meta)", body, host=host,
                          true_encoding=codec, expected_marker=marker)  # fmt: skip
                out.append(doc)
    return out


def main() -> int:
    rows = record(docs())
    for row in rows[1:]:
        row["split"] = "probe"
    write_rows(rows, OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
