"""Write a larger, varied evaluation corpus from the words of ``texts.py`` (not committed).

Usage: python scripts/detection/generate_corpus.py OUT_DIR [--per-size N] [--seed S]
[--short-bytes MIN MAX] [--typographic]

For each language and encoding of ``texts.py``: N short pages (200-400 bytes, or MIN-MAX), N
medium pages (about 1-2 KB of text) and one page of about 20 KB, each made of sentences of the language's
words in a random order (so the letters are the language's, but no page repeats the committed
ones), none declaring its encoding. ``MANIFEST.tsv`` gives file, true encoding and the TLD, as
``benchmarks/eval_detection.py`` expects: ``python benchmarks/eval_detection.py OUT_DIR``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from texts import TEXTS
from write_pages import TLDS, long_page, short_page

from scrapy_charset.encoding import get_encoding

_CJK = ("ja", "zh", "ko", "th")


def _words(paragraphs: tuple[str, ...], language: str) -> list[str]:
    text = " ".join(paragraphs)
    if language.startswith(_CJK) and " " not in paragraphs[0].strip()[:40]:
        # Scripts without spaces: pieces of 2-6 characters stand for words.
        return [text[i : i + 4] for i in range(0, len(text) - 4, 3)]
    return [word.strip(".,;:!?«»“”„\"()") for word in text.split()]


# Languages that open a quotation low (`„word“`); the others here write `“word”`.
_LOW_QUOTES = ("de", "cs", "sk", "pl", "hu", "ro", "hr", "sl", "bg", "ru", "uk", "lt", "lv", "et")


def typographic(word: str, rng: random.Random, language: str) -> str:
    """``word``, one time in ten in quotes, with an apostrophe and `s` after it (Latin
    script), or followed by a dash or an ellipsis: the punctuation of real pages
    (``--typographic``; a character the encoding lacks is written as ASCII)."""
    roll = rng.random()
    if roll < 0.04:
        return f"„{word}“" if language.split("-")[0] in _LOW_QUOTES else f"“{word}”"
    if roll < 0.06 and word.isalpha() and word[:1].isascii():
        return word + "’s"
    if roll < 0.08:
        return word + " –"
    if roll < 0.1:
        return word + "…"
    return word


def sentences(
    words: list[str], rng: random.Random, size: int, joiner: str, language: str | None = None
) -> str:
    """Sentences of ``words`` until about ``size`` characters; with ``language``, typographic
    punctuation added (``typographic``)."""
    out: list[str] = []
    length = 0
    while length < size:
        chosen = [rng.choice(words) for _ in range(rng.randint(4, 12))]
        if language is not None and joiner:
            chosen = [typographic(word, rng, language) for word in chosen]
        sentence = joiner.join(chosen)
        sentence = sentence[:1].upper() + sentence[1:] + rng.choice(".....?!;")
        out.append(sentence)
        length += len(sentence) + 1
    return " ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-size", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--short-bytes", type=int, nargs=2, default=(200, 400), help="short pages' size range"
    )
    parser.add_argument(
        "--typographic", action="store_true", help="add quotes, apostrophes, dashes, ellipses"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = ["file\twhatwg_encoding\ttld"]
    for language, (encodings, paragraphs) in TEXTS.items():
        tld = TLDS[language.split("-")[0]]
        words = [word for word in _words(paragraphs, language) if word]
        joiner = "" if language.startswith(("ja", "zh", "th")) else " "
        typo = language if args.typographic else None
        for name in encodings:
            canonical = get_encoding(name).name
            pages = []
            for n in range(args.per_size):
                limit = rng.randint(*args.short_bytes)
                short = sentences(words, rng, 600, joiner, typo)
                pages.append((f"short{n}", short_page(short, canonical, limit)))
                medium = tuple(
                    sentences(words, rng, 300, joiner, typo) for _ in range(rng.randint(3, 6))
                )
                pages.append((f"medium{n}", long_page(medium, canonical)))
            big = tuple(sentences(words, rng, 400, joiner, typo) for _ in range(40))
            pages.append(("big", long_page(big, canonical)))
            for size, body in pages:
                file = f"{language}-{canonical}-{size}.html"
                (args.out / file).write_bytes(body)
                rows.append(f"{file}\t{canonical}\t{tld}")
    (args.out / "MANIFEST.tsv").write_text("\n".join(rows) + "\n")
    print(f"{len(rows) - 1} pages in {args.out}")


if __name__ == "__main__":
    main()
