"""Write a labelled suite of plain texts from the machine's gettext catalogs (not committed).

Usage: python scripts/detection/gettext_suite.py OUT [--bytes LOW HIGH] [--seed N] [--pages N]
       [--rare] [--locale-dir /usr/share/locale]
       python benchmarks/eval_text_suite.py OUT --failures

The translated messages of every installed program (GTK, GLib, coreutils, the ISO country and
language names...) are real text in many languages that this package's rules were never
written from: an evaluation set independent of ``texts.py``. For each language and each legacy
encoding its pages are written in, messages of that language are drawn at random, in the order
drawn, until the text holds ``--bytes`` bytes in that encoding (messages the encoding cannot
hold are passed over), and written as ``OUT/<language>/<encoding>.txt`` (with ``--pages N``,
``<encoding>.<n>.txt``, N texts each): the layout ``benchmarks/eval_text_suite.py`` reads (it
wraps each text as undeclared HTML, with the language's ccTLD). Messages are taken with their
punctuation (quotes, dashes, ellipses as the translators wrote them); a format directive stands
for a value (``%d`` a number, ``%s`` or ``{name}`` the word ``data``), markup is left out, and
messages without letters are skipped. The texts depend on the catalogs installed: quote counts
with the machine they were measured on.
"""

from __future__ import annotations

import argparse
import gettext
import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# The legacy encodings pages in each language are written in, as Encoding Standard names
# (what a suite file is named; eval_text_suite.py looks each up).
ENCODINGS = {
    "windows-1252": ["ca", "da", "de", "es", "eu", "fi", "fr", "ga", "gl", "is", "it", "nl",
                     "nb", "pt", "pt_BR", "sv", "af", "id", "ms", "sq", "ast", "oc"],
    "ISO-8859-15": ["fr", "fi", "et", "de", "es"],
    "windows-1250": ["cs", "hr", "hu", "pl", "ro", "sk", "sl", "bs"],
    "ISO-8859-2": ["cs", "hr", "hu", "pl", "sk", "sl"],
    "ISO-8859-16": ["ro"],
    "ISO-8859-3": ["mt", "eo"],
    "windows-1257": ["lt", "lv", "et"],
    "ISO-8859-13": ["lt", "lv"],
    "ISO-8859-4": ["lt", "lv"],
    "windows-1251": ["ru", "uk", "be", "bg", "mk", "sr"],
    "KOI8-R": ["ru"],
    "KOI8-U": ["uk"],
    "ISO-8859-5": ["ru", "bg"],
    "IBM866": ["ru"],
    "windows-1253": ["el"],
    "ISO-8859-7": ["el"],
    "windows-1254": ["tr", "az"],
    "ISO-8859-9": ["tr"],
    "windows-1255": ["he"],
    "ISO-8859-8": ["he"],
    "windows-1256": ["ar", "fa"],
    "windows-1258": ["vi"],
    "windows-874": ["th"],
    "Shift_JIS": ["ja"],
    "EUC-JP": ["ja"],
    "ISO-2022-JP": ["ja"],
    "GBK": ["zh_CN"],
    "gb18030": ["zh_CN"],
    "Big5": ["zh_TW"],
    "EUC-KR": ["ko"],
}  # fmt: skip
# The rarer pairs, written with --rare: each language's other encodings that detectors list
# for it (uchardet's README lists ISO-8859-13 for Finnish, ISO-8859-16 for Slovene, ...) and
# browsers decode; most read as windows-1252 does, but where a sign or a letter differs.
RARE_ENCODINGS = {
    "ISO-8859-16": ["pl", "hr", "sl", "hu", "sq", "it", "fr", "de", "ro"],
    "ISO-8859-13": ["pl", "hr", "sl", "et", "lt", "lv", "fi", "da", "sv", "de"],
    "ISO-8859-4": ["et", "fi", "lt", "lv", "da", "sv", "de", "sl"],
    "ISO-8859-10": ["lt", "lv", "et", "fi", "is", "nb", "da", "sv"],
    "ISO-8859-3": ["it", "mt", "eo", "tr", "de", "fr"],
    "ISO-8859-9": ["fi", "ga", "it", "pt", "tr", "es", "de", "sv"],
    "ISO-8859-15": ["da", "fi", "fr", "ga", "it", "pt", "es", "de", "nl", "ca", "et", "nb"],
    "ISO-8859-14": ["ga", "cy", "gd", "br"],
    "ISO-8859-5": ["be", "mk", "sr", "uk"],
    "ISO-8859-6": ["ar"],
    "IBM866": ["be", "uk"],
    "x-mac-cyrillic": ["ru", "be", "uk", "bg"],
    "macintosh": ["fr", "de", "es", "it", "pt", "sv"],
    "windows-1252": ["et"],
}  # fmt: skip
# Python's codec for each (the text a page in it holds is what that codec encodes).
CODECS = {
    "ISO-8859-8": "iso8859_8", "windows-874": "cp874", "Big5": "big5", "GBK": "gbk",
    "x-mac-cyrillic": "mac_cyrillic", "macintosh": "mac_roman",
}  # fmt: skip
# Suite directory names eval_text_suite.py maps to a ccTLD (zh is mapped by encoding).
LANGUAGE_DIRS = {"pt_BR": "pt", "zh_CN": "zh", "zh_TW": "zh", "nb": "no"}

_DIRECTIVE = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[hlLqjzt]*[a-zA-Z%]|\{[^}]*\}|%\(\w+\)\w")
_NUMBER = re.compile(r"%[-#0 +]*\d*[hlLqjzt]*[diux]")
_MARKUP = re.compile(r"<[^>]*>|_(?=\w)")


def messages(locale_dir: Path, language: str) -> list[str]:
    """Every translated message of the language's catalogs, cleaned, without repeats."""
    found: dict[str, None] = {}
    for path in sorted((locale_dir / language / "LC_MESSAGES").glob("*.mo")):
        try:
            with path.open("rb") as handle:
                catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
        except Exception:
            continue
        for key, text in catalog.items():
            if not key or not isinstance(text, str):
                continue
            # (a value where a program puts one: a number, or a name such as a file's)
            text = _DIRECTIVE.sub("data", _NUMBER.sub("3", _MARKUP.sub("", text)))
            text = " ".join(text.split())
            if len(text) >= 3 and any(c.isalpha() for c in text):
                found[text] = None
    return list(found)


def to_cp1258(text: str) -> str:
    """Vietnamese as windows-1258 writes it: a letter it lacks precomposed (`ế`, `ộ`) as the
    base letter with one of its marks where it has that letter (`ê`, `ô`), then the tone mark
    as a combining character."""
    out = []
    for char in text:
        try:
            char.encode("cp1258")
        except UnicodeEncodeError:
            base, *marks = unicodedata.normalize("NFD", char)
            for mark in marks:  # (`ệ` is e, dot below, circumflex: ê and a dot below)
                letter = unicodedata.normalize("NFC", base + mark)
                if len(letter) == 1 and letter.encode("cp1258", "ignore"):
                    base = letter
                    marks.remove(mark)
                    break
            char = base + "".join(marks)
        out.append(char)
    return "".join(out)


def text_of(pool: list[str], codec: str, low: int, high: int, rng: random.Random) -> bytes:
    """Messages drawn from ``pool`` until the encoded text is ``low``-``high`` bytes long."""
    target = rng.randint(low, high)
    parts: list[bytes] = []
    size = 0
    for _ in range(len(pool) * 2):
        message = rng.choice(pool)
        if codec == "windows-1258":
            message = to_cp1258(message)
        try:
            encoded = message.encode(codec)
        except UnicodeEncodeError:
            continue
        if size + len(encoded) + 1 > high and size >= low:
            break
        parts.append(encoded)
        size += len(encoded) + 1
        if size >= target:
            break
    return b" ".join(parts)


def write_suite(
    out: Path,
    pages: int,
    seed: int,
    size: tuple[int, int],
    pool_of: Callable[[str], Sequence[Any]],
    text_for: Callable[[Sequence[Any], str, int, int, random.Random], bytes | None],
    enough: int,
    encodings: dict[str, list[str]] = ENCODINGS,
) -> int:
    """Write ``pages`` texts per language and encoding of ``encodings`` under ``out``, each
    ``text_for`` the language's ``pool_of`` (languages whose pool is under ``enough`` are left
    out), ``size`` bytes long; the number written. Shared with ``manpages_suite.py``."""
    cache: dict[str, Sequence[Any]] = {}
    written = 0
    for encoding, languages in encodings.items():
        codec = CODECS.get(encoding, encoding)
        for language in languages:
            pool = cache.setdefault(language, pool_of(language))
            if len(pool) < enough:
                continue
            folder = out / LANGUAGE_DIRS.get(language, language)
            for page in range(pages):
                rng = random.Random(f"{seed} {language} {encoding} {page}")
                text = text_for(pool, codec, *size, rng)
                if text is None:
                    continue
                if not any(byte >= 0x80 for byte in text) and encoding != "ISO-2022-JP":
                    continue  # ASCII: every encoding reads it right
                folder.mkdir(parents=True, exist_ok=True)
                name = f"{encoding}.{page}" if pages > 1 else encoding
                (folder / f"{name}.txt").write_bytes(text)
                written += 1
    return written


def suite_parser(description: str) -> argparse.ArgumentParser:
    """The arguments of a suite writer: OUT, --bytes, --seed, --pages, --rare (``encodings``:
    the table to write)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out", type=Path)
    parser.add_argument("--bytes", nargs=2, type=int, default=(200, 400))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pages", type=int, default=1, help="texts per language and encoding")
    parser.add_argument(
        "--rare",
        dest="encodings",
        action="store_const",
        const=RARE_ENCODINGS,
        default=ENCODINGS,
        help="the rarer pairs (RARE_ENCODINGS), not ENCODINGS",
    )
    return parser


def write_from_args(
    args: argparse.Namespace,
    pool_of: Callable[[str], Sequence[Any]],
    text_for: Callable[[Sequence[Any], str, int, int, random.Random], bytes | None],
    enough: int,
) -> None:
    """``write_suite`` with the arguments ``suite_parser`` parsed, and how many it wrote."""
    written = write_suite(
        args.out, args.pages, args.seed, args.bytes, pool_of, text_for, enough, args.encodings
    )
    print(f"{written} texts in {args.out}")


def main() -> None:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--locale-dir", type=Path, default=Path("/usr/share/locale"))
    args = parser.parse_args()
    write_from_args(args, lambda language: messages(args.locale_dir, language), text_of, 20)


if __name__ == "__main__":
    main()
