"""More pages in code pages no browser has, to find the rules of Chromium's detector.

Writes ``tests/data/chromium/unknown_labels_more.jsonl.gz`` (same row format as
``unknown_labels.jsonl.gz``, plus a ``split`` field): every (label, language) pair below as a
short (about 250 bytes of text), a medium (about 1 KB) and a long (about 4 KB) page labelled
in ``<meta>`` with a name no browser knows, served from 127.0.0.1 (no TLD) and, short and long,
from a host under the language's country TLD. Half of the (label, language) pairs, chosen by a
hash of their names, are ``held-out``: rules are written on the ``dev`` half only and checked on
the other.

Usage: ``python scripts/chromium/probe_unknown_labels.py [--fresh]`` (``--fresh`` adds the
``fresh`` pages, texts written for this check only, to the existing fixture).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "detection"))

from fresh_texts import FRESH  # noqa: E402
from record_documents import ROOT, Doc, page, record, write_rows  # noqa: E402
from record_unknown_labels import _PLAIN, EXTRA  # noqa: E402
from samples import SAMPLES  # noqa: E402
from texts import TEXTS  # noqa: E402

OUT = ROOT / "tests" / "data" / "chromium" / "unknown_labels_more.jsonl.gz"

WESTERN = ("fr", "de", "es", "it", "pt", "nl", "sv", "da", "fi", "ca", "en")
# (label as written, Python codec of the bytes, languages)
PROBES: list[tuple[str, str, tuple[str, ...]]] = [
    ("latin9", "iso8859_15", ("fr-euro", "fr", "de", "es", "it", "pt", "nl", "fi", "et", "ca")),
    ("mac-roman", "mac_roman", WESTERN + ("no",)),
    ("cp437", "cp437", ("fr", "de", "es", "sv", "fi", "it", "nl", "da", "en")),
    ("cp850", "cp850", WESTERN + ("no", "is", "ga", "eu", "gl", "af")),
    ("cp863", "cp863", ("fr",)),
    ("cp860", "cp860", ("pt", "es")),
    ("cp865", "cp865", ("da", "no", "sv")),
    ("cp861", "cp861", ("is", "fo")),
    ("mac-iceland", "mac_iceland", ("is",)),
    ("cp852", "cp852", ("cs", "pl", "hu", "sk", "hr", "sl", "ro-cedilla", "sq", "de")),
    ("mac-latin2", "mac_latin2", ("cs", "pl", "hu", "sk", "sl", "hr", "lt", "lv", "et", "de")),
    ("mac-croatian", "mac_croatian", ("hr", "sl")),
    ("mac-romanian", "mac_romanian", ("ro",)),
    ("cp775", "cp775", ("lt", "lv", "et")),
    ("cp855", "cp855", ("ru", "sr", "bg", "mk", "uk", "be")),
    ("mac-cyrillic", "mac_cyrillic", ("ru", "uk", "bg", "sr", "be", "mk")),
    ("cp1125", "cp1125", ("uk", "ru", "be")),
    ("koi8-t", "koi8_t", ("tg", "ru")),
    ("kz-1048", "kz1048", ("kk", "ru")),
    ("pt154", "ptcp154", ("kk",)),
    ("cp866u", "cp866", ("bg", "mk", "sr")),
    ("cp737", "cp737", ("el",)),
    ("cp869", "cp869", ("el",)),
    ("mac-greek", "mac_greek", ("el",)),
    ("cp857", "cp857", ("tr", "ku")),
    ("mac-turkish", "mac_turkish", ("tr",)),
    ("cp862", "cp862", ("he",)),
    ("cp864", "cp864", ("ar",)),
    ("cp720", "cp720", ("ar",)),
    ("tis620", "tis_620", ("th",)),
    ("iso-8859-11-2001", "iso8859_11", ("th",)),
    ("johab", "johab", ("ko",)),
    ("cp949", "cp949", ("ko",)),
    ("cp932", "cp932", ("ja",)),
    ("sjis-open", "shift_jis", ("ja",)),
    ("eucjp-ms", "euc_jp", ("ja",)),
    ("cp936", "gbk", ("zh-hans",)),
    ("big5hkscs", "big5hkscs", ("zh-hant",)),
    ("utf8mb4", "utf-8", ("fr", "ru", "el", "ja", "pl", "ar")),
    ("latin-1", "cp1252", ("es", "sv", "pt")),
    ("win-1251", "cp1251", ("uk", "sr", "mk")),
    ("win-1250", "cp1250", ("hu", "sk", "hr", "ro-cedilla")),
    ("win-1257", "cp1257", ("lt", "lv", "et")),
    ("win-1253", "cp1253", ("el",)),
    ("win-1254", "cp1254", ("tr",)),
    ("win-1255", "cp1255", ("he",)),
    ("latin7", "iso8859_13", ("lt", "lv")),
    ("latin8", "iso8859_14", ("cy",)),
    ("latin10", "iso8859_16", ("ro",)),
]
# A last check, recorded after the rules were written: texts in none of the fixtures (written
# for this one), in the code pages above; split ``fresh``.
FRESH_PROBES: list[tuple[str, str, tuple[str, ...]]] = [
    ("latin9", "iso8859_15", ("fr", "de", "es", "fi", "nl")),
    ("mac-roman", "mac_roman", ("fr", "de", "es", "it", "pt", "sv", "da", "no", "fi", "nl")),
    ("cp437", "cp437", ("fr", "de", "es", "sv", "fi", "nl", "da")),
    ("cp850", "cp850", ("fr", "de", "es", "it", "pt", "sv", "da", "no", "nl")),
    ("cp865", "cp865", ("da", "no")),
    ("cp852", "cp852", ("cs", "pl", "hu", "sk", "hr", "sl")),
    ("mac-latin2", "mac_latin2", ("cs", "pl", "hu", "sk", "lt", "lv")),
    ("cp775", "cp775", ("lt", "lv")),
    ("cp857", "cp857", ("tr",)),
    ("mac-turkish", "mac_turkish", ("tr",)),
    ("cp855", "cp855", ("ru", "uk", "bg")),
    ("mac-cyrillic", "mac_cyrillic", ("ru", "uk", "bg")),
    ("cp1125", "cp1125", ("uk", "ru")),
    ("koi8-t", "koi8_t", ("ru",)),
    ("cp737", "cp737", ("el",)),
    ("cp869", "cp869", ("el",)),
    ("mac-greek", "mac_greek", ("el",)),
]
TLD = {"fr-euro": "fr", "en": "com", "sv": "se", "da": "dk", "ca": "es", "et": "ee", "cs": "cz",
       "sl": "si", "ro-cedilla": "ro", "sq": "al", "sr": "rs", "uk": "ua", "be": "by",
       "tg": "tj", "kk": "kz", "el": "gr", "ku": "iq", "he": "il", "ar": "eg", "fa": "ir",
       "ja": "jp", "ko": "kr", "zh-hans": "cn", "zh-hant": "tw", "ga": "ie", "eu": "es",
       "gl": "es", "af": "za", "cy": "uk", "mt": "mt", "eo": "org", "vi": "vn"}  # fmt: skip


_SPELLED = {"€": "EUR", "œ": "oe", "Œ": "OE", "ß": "ss", "ð": "d", "þ": "th", "Þ": "Th", "æ": "ae",
            "ø": "o", "å": "a", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "ѓ": "г",
            "ќ": "к", "ѕ": "з", "љ": "л", "њ": "н", "џ": "ц", "ј": "j", "ћ": "ч", "ђ": "дж",
            "ў": "у", "і": "i", "ї": "i", "є": "е", "ґ": "г", "ё": "е"}  # fmt: skip


def writable(text: str, codec: str) -> str:
    """``text`` as a writer with ``codec`` types it: accents the code page lacks dropped, a
    few letters spelled out, anything else left out."""
    out = []
    for char in text:
        for form in (char, unicodedata.normalize("NFD", char)[0], _SPELLED.get(char, "")):
            try:
                form.encode(codec)
            except UnicodeEncodeError:
                continue
            out.append(form)
            break
    return "".join(out)


def all_text(language: str) -> str:
    """Every sentence the fixtures have for ``language``, distinct texts first."""
    base = language.split("-")[0] if language != "ro-cedilla" else language
    parts: list[str] = []
    if language in EXTRA:
        parts.append(EXTRA[language])
    for key in (language, f"{base}-news", f"{base}-history", f"{base}-science"):
        if key in TEXTS:
            parts.extend(TEXTS[key][1])
    if base in SAMPLES:
        parts.append(SAMPLES[base])
    return " ".join(parts)


def sized(text: str, codec: str, size: int) -> str:
    """``text`` cut (at a space) or repeated in new paragraphs to about ``size`` bytes."""
    out = text
    n = 1
    while len(out.encode(codec)) < size:
        n += 1
        out += f"\n{n}. {text}"
    while len(out.encode(codec)) > size and " " in out:
        out = out.rsplit(" ", 1)[0]
    return out


def split_of(label: str, language: str) -> str:
    digest = hashlib.sha256(f"{label}/{language}".encode()).digest()
    return "held-out" if digest[0] & 1 else "dev"


def docs(fresh: bool = False) -> list[Doc]:
    out = []
    for label, codec, languages in FRESH_PROBES if fresh else PROBES:
        for language in languages:
            source = FRESH[language] if fresh else all_text(language)
            text = writable(source.translate(_PLAIN), codec)
            tld = TLD.get(language, language.split("-")[0])
            for size, nbytes, hosts in (
                ("short", 250, ("127.0.0.1", f"www.example.{tld}")),
                ("medium", 1000, ("127.0.0.1",)),
                ("long", 4000, ("127.0.0.1", f"www.example.{tld}")),
            ):
                if fresh and size == "long":
                    hosts = ("127.0.0.1",)
                marker = sized(text, codec, nbytes)
                body = page(f'<meta charset="{label}">', marker).encode(codec)
                for host in hosts:
                    where = "ip" if host == "127.0.0.1" else tld
                    prefix = "fresh" if fresh else "meta"
                    doc = Doc(f"{prefix}-{label}-{language}-{size}-{where}", "meta",
                              f"{language} in {codec} labelled {label} (meta)", body,
                              host=host, true_encoding=codec, expected_marker=marker)  # fmt: skip
                    out.append(doc)
    return out


def main(argv: list[str]) -> int:
    """Record the probes (or, with ``--fresh``, add the fresh texts to the fixture)."""
    fresh = "--fresh" in argv
    rows = record(docs(fresh))
    for row in rows[1:]:
        label = row["description"].split(" labelled ")[1].split(" (")[0]
        row["split"] = "fresh" if fresh else split_of(label, row["description"].split(" in ")[0])
    if fresh:
        with gzip.open(OUT, "rt", encoding="utf-8") as f:
            old = [json.loads(line) for line in f]
        rows = old + [row for row in rows[1:] if row["id"] not in {r.get("id") for r in old}]
    write_rows(rows, OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
