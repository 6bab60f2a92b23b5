"""Write the labelled detection pages under ``tests/data/detection/`` from ``texts.py``.

Usage: python scripts/detection/write_pages.py

For each language and encoding: a short page (200-400 bytes: the first paragraph, cut at a
word) and a long page (every paragraph inside navigation, a script and a footer, 3-6 KB),
neither declaring its encoding; plus the short pages of ``FEW_BYTES``. ``MANIFEST.tsv`` lists
``file``, the true encoding and the country-code TLD the language is usually served from.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from texts import FEW_BYTES, TEXTS

from scrapy_charset.encoding import get_encoding
from scrapy_charset.encoding.fast import charmap_table

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "detection"
TLDS = {
    "en": "uk", "fr": "fr", "de": "de", "es": "es", "pt": "pt", "it": "it", "ca": "es",
    "nl": "nl", "sv": "se", "da": "dk", "no": "no", "fi": "fi", "is": "is", "et": "ee",
    "lv": "lv", "lt": "lt", "pl": "pl", "cs": "cz", "sk": "sk", "hu": "hu", "sl": "si",
    "hr": "hr", "ro": "ro", "tr": "tr", "mt": "mt", "eo": "org", "cy": "uk", "vi": "vn",
    "el": "gr", "ru": "ru", "uk": "ua", "be": "by", "bg": "bg", "sr": "rs", "mk": "mk",
    "he": "il", "ar": "eg", "fa": "ir", "th": "th", "ja": "jp", "zh": "cn", "ko": "kr",
    "ga": "ie", "eu": "es", "gl": "es", "sq": "al", "af": "za", "fo": "fo", "ku": "tr",
    "ur": "pk", "br": "fr", "gd": "uk",
}  # fmt: skip
# Typography an encoding lacks is written as a writer of that encoding would.
_PLAIN = {
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "„": '"',
    "—": "-",
    "–": "-",
    "…": "...",
    "ی": "ي",
    "ک": "ك",
    "۔": ".",
}
# Multi-byte encodings are written by Python's codecs (EUC-KR as UHC, which browsers decode).
_CODECS = {"Shift_JIS": "cp932", "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp", "GBK": "gbk",
           "gb18030": "gb18030", "Big5": "big5", "EUC-KR": "cp949", "UTF-8": "utf-8",
           "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be"}  # fmt: skip


@lru_cache(maxsize=None)
def _fits(char: str, codec: str) -> bool:
    """Whether Python's ``codec`` can write ``char`` (else punctuation is written as ASCII)."""
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def encode(text: str, encoding: str) -> bytes:
    """``text`` in a single-byte encoding (by the standard's table; a character the table
    lacks is decomposed into one it has and combining marks, as windows-1258 writes tones),
    or in a multi-byte encoding by Python's codec."""
    if encoding in _CODECS:
        codec = _CODECS[encoding]
        plain = (char if _fits(char, codec) else _PLAIN.get(char, char) for char in text)
        return "".join(plain).encode(codec)
    table = {char: byte for byte, char in enumerate(charmap_table(encoding))}
    out = bytearray()
    for char in text:
        if char in table:
            out.append(table[char])
            continue
        decomposed = unicodedata.normalize("NFD", char)
        base, marks = decomposed[0], decomposed[1:]
        # A precomposed letter the table has, and the one mark left over (ệ: ê and the dot).
        splits = [(base, marks)] + [
            (unicodedata.normalize("NFC", base + marks[:i] + marks[i + 1 :]), marks[i])
            for i in range(len(marks))
        ]
        for head, rest in splits:
            if head in table and all(mark in table for mark in rest):
                base, marks = head, rest
                break
        else:
            if char not in _PLAIN:
                raise ValueError(f"{char!r} cannot be written in {encoding}")
            out.extend(table[plain] for plain in _PLAIN[char])
            continue
        out.append(table[base])
        out.extend(table[mark] for mark in marks)
    return bytes(out)


def short_page(paragraph: str, encoding: str, limit: int = 400) -> bytes:
    head = "<!DOCTYPE html><html><head><title>Page</title></head><body><p>"
    tail = "</p></body></html>\n"
    words = paragraph.split(" ")
    while True:
        body = encode(head + " ".join(words) + tail, encoding)
        if len(body) <= limit or len(words) == 1:
            return body
        words.pop()


def long_page(paragraphs: tuple[str, ...], encoding: str) -> bytes:
    nav = "".join(
        f'<li><a href="/section/{n}/index.html">Section {n}</a></li>' for n in range(1, 25)
    )
    script = "<script>window.dataLayer = window.dataLayer || []; function track(e) { dataLayer.push(e); }</script>"
    text = "".join(f"<p>{paragraph}</p>\n" for paragraph in paragraphs)
    html = (
        f'<!DOCTYPE html><html lang="x"><head><title>{paragraphs[0][:40]}</title>'
        f'<link rel="stylesheet" href="/static/site.css">{script}</head><body>'
        f'<nav><ul class="menu">{nav}</ul></nav><main><h1>{paragraphs[0][:30]}</h1>\n{text}</main>'
        f'<footer><a href="/about">About</a> | <a href="/contact">Contact</a></footer></body></html>\n'
    )
    return encode(html, encoding)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rows = ["file\twhatwg_encoding\ttld"]
    for language, (encodings, paragraphs) in TEXTS.items():
        tld = TLDS[language.split("-")[0]]
        for name in encodings:
            canonical = get_encoding(name).name
            for size, body in (
                ("short", short_page(paragraphs[0], canonical)),
                ("long", long_page(paragraphs, canonical)),
            ):
                file = f"{language}-{canonical}-{size}.html"
                (OUT / file).write_bytes(body)
                rows.append(f"{file}\t{canonical}\t{tld}")
    for key, (name, sentence) in FEW_BYTES.items():
        canonical = get_encoding(name).name
        file = f"{key}-{canonical}-few.html"
        body = (
            b"<!DOCTYPE html><html><head><title>Note</title></head><body><p>"
            + encode(sentence, canonical)
            + b"</p></body></html>\n"
        )
        (OUT / file).write_bytes(body)
        rows.append(f"{file}\t{canonical}\t{TLDS[key.split('-')[0]]}")
    (OUT / "MANIFEST.tsv").write_text("\n".join(rows) + "\n")
    print(f"{len(rows) - 1} pages in {OUT}")


if __name__ == "__main__":
    main()
