"""Detection accuracy on a labelled suite of plain texts, each wrapped as undeclared HTML.

Usage: python benchmarks/eval_text_suite.py SUITE_DIR [--failures] [--by-encoding] [--keep DIR]

SUITE_DIR holds ``<language>/<encoding>.<ext>`` files (or ``<encoding>.<n>.<ext>``, several
in one encoding): plain text in the encoding its name says (uchardet's ``test/`` folder has
this layout; nothing of it is copied into this project).
Each text whose encoding a browser can decode is wrapped as an HTML page declaring nothing
(paragraphs as ``<p>``; ``<pre>`` for UTF-16 and ISO-2022-JP, whose bytes are not escaped)
and given to ``benchmarks/eval_detection.py`` with the ccTLD of its language, which prints
the right-text counts of this package and the other detectors side by side. Texts in
encodings no browser decodes (IBM852, VISCII, EUC-TW, Johab, ...) are listed and skipped.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from eval_detection import evaluate

from scrapy_charset.encoding import Encoding, lookup

# File names that are not Encoding Standard labels but name one of its encodings.
_ALIASES = {"uhc": "EUC-KR", "mac-cyrillic": "x-mac-cyrillic", "utf-16": "UTF-16LE"}
# The ccTLD pages in each language are usually served from (None: no country's).
_TLDS = {
    "ar": "eg", "be": "by", "bg": "bg", "ca": None, "cs": "cz", "da": "dk", "de": "de",
    "el": "gr", "en": None, "eo": None, "es": "es", "et": "ee", "fi": "fi", "fr": "fr",
    "ga": "ie", "he": "il", "hi": "in", "hr": "hr", "hu": "hu", "it": "it", "ja": "jp",
    "ka": "ge", "ko": "kr", "lt": "lt", "lv": "lv", "mk": "mk", "mt": "mt", "no": "no",
    "pl": "pl", "pt": "pt", "ro": "ro", "ru": "ru", "sk": "sk", "sl": "si", "sr": "rs",
    "sv": "se", "th": "th", "tr": "tr", "uk": "ua", "vi": "vn", "af": "za", "az": "az",
    "bs": "ba", "fa": "ir", "id": "id", "is": "is", "ms": "my", "nl": "nl", "sq": "al",
}  # fmt: skip
_ZH_TLDS = {"Big5": "tw", "gb18030": "cn", "GBK": "cn"}


def encoding_of(path: Path) -> Encoding | None:
    """The encoding a suite file's name says (``utf-16.le``: UTF-16LE with a BOM)."""
    stem = path.name
    for suffix in (".txt", ".smi"):
        stem = stem.removesuffix(suffix)
    stem = re.sub(r"\.\d+$", "", stem)  # windows-1252.3.txt: the fourth text in windows-1252
    label = stem.replace(".", "")  # utf-16.le -> utf-16le
    return lookup(_ALIASES.get(label, label))


def wrap(text: bytes, encoding: Encoding) -> bytes:
    """``text`` as an HTML page declaring no encoding."""
    head = "<!DOCTYPE html>\n<html><head><title>{}</title></head><body>\n"
    if encoding.name in ("UTF-16LE", "UTF-16BE"):
        codec = "utf-16-le" if encoding.name == "UTF-16LE" else "utf-16-be"
        bom = text[:2] in (b"\xff\xfe", b"\xfe\xff")
        start = head.format("text").encode(codec) + "<pre>".encode(codec)
        page = start + (text[2:] if bom else text) + "</pre></body></html>\n".encode(codec)
        return (text[:2] if bom else b"") + page
    if encoding.name == "ISO-2022-JP":
        return head.format("text").encode() + b"<pre>" + text + b"</pre></body></html>\n"
    # Bytes '&' and '<' are never part of a character of these encodings.
    escaped = text.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b"\r\n", b"\n")
    paragraphs = [p.strip() for p in escaped.split(b"\n\n") if p.strip()]
    body = b"\n".join(b"<p>" + p + b"</p>" for p in paragraphs)
    return head.format("text").encode() + body + b"\n</body></html>\n"


def write_pages(suite: Path, out: Path) -> tuple[int, list[str]]:
    """Write the wrapped pages and their MANIFEST.tsv into ``out``; the skipped files."""
    rows = ["file\twhatwg_encoding\ttld"]
    skipped = []
    for path in sorted(suite.glob("*/*")):
        if not path.is_file():
            continue
        language = path.parent.name
        encoding = encoding_of(path)
        if encoding is None or encoding.name == "replacement":
            skipped.append(f"{language}/{path.name}")
            continue
        tld = _ZH_TLDS.get(encoding.name) if language == "zh" else _TLDS.get(language)
        name = f"{language}/{path.name}.html"
        (out / language).mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(wrap(path.read_bytes(), encoding))
        rows.append(f"{name}\t{encoding.name}\t{tld or ''}")
    (out / "MANIFEST.tsv").write_text("\n".join(rows) + "\n")
    return len(rows) - 1, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("--failures", action="store_true", help="list the files each got wrong")
    parser.add_argument("--by-encoding", action="store_true", help="ours per language/encoding")
    parser.add_argument("--keep", type=Path, help="write the pages here (else a temporary dir)")
    parser.add_argument("--only", action="append", help="these contenders only")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        out = args.keep or Path(temporary)
        out.mkdir(parents=True, exist_ok=True)
        count, skipped = write_pages(args.suite, out)
        print(f"{count} pages; skipped (no browser decodes them): {', '.join(skipped) or '-'}")
        evaluate(out, args.failures, args.by_encoding, args.only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
