"""Write a labelled suite of plain texts from the machine's translated manual pages (not
committed).

Usage: python scripts/detection/manpages_suite.py OUT [--bytes LOW HIGH] [--seed N] [--pages N]
       [--rare] [--man-dir /usr/share/man]
       python benchmarks/eval_text_suite.py OUT --failures

Debian's ``manpages-<language>`` packages (``apt-get install manpages-de manpages-pl ...``)
hold translated prose in some 30 languages: running sentences, written by people, with the
program names, options, English leftovers and typography a real page has; the detection rules
were never written from it, so it is an evaluation set independent of ``texts.py`` and of
``gettext_suite.py``'s short messages. For each language and each legacy encoding its pages
are written in (``gettext_suite.ENCODINGS``), a manual page is drawn at random and its
paragraphs are taken in order, from a random one, until the text holds ``--bytes`` bytes in
that encoding, and written as ``OUT/<language>/<encoding>.txt`` (``<encoding>.<n>.txt`` with
``--pages N``), the layout ``benchmarks/eval_text_suite.py`` reads. The roff markup is
removed; its named characters become the characters they name. Punctuation an encoding lacks
(``—`` ``“`` ``„`` ``…`` in ISO-8859-2, say) is written as ASCII, as an author writing in that
encoding would; a paragraph with a letter it lacks is passed over. The texts depend on the
packages installed: quote counts with the machine they were measured on.
"""

from __future__ import annotations

import gzip
import random
import re
from collections.abc import Callable
from pathlib import Path

from gettext_suite import suite_parser, to_cp1258, write_from_args

# roff's named characters and strings (groff_char(7)) that stand for punctuation.
_NAMED = {
    "em": "\u2014", "en": "\u2013", "lq": "\u201c", "rq": "\u201d", "oq": "\u2018",
    "cq": "\u2019", "aq": "'", "dq": '"', "Fo": "\u00ab", "Fc": "\u00bb", "bq": "\u201a",
    "Bq": "\u201e", "bu": "\u2022", "co": "\u00a9", "ti": "~", "ha": "^", "rs": "\\",
    "hy": "-", "mi": "-", "pl": "+", "mu": "\u00d7", "de": "\u00b0", "fo": "\u2039",
    "fc": "\u203a", "r!": "\u00a1", "r?": "\u00bf", "tm": "\u2122", "rg": "\u00ae",
}  # fmt: skip
_ESCAPE = re.compile(
    r"""\\(?:
        f(?:\[[^\]]*\]|\(..|.)           # font change
      | s[-+]?\d                          # size change
      | [*n](?:\[[^\]]*\]|\(..|.)         # string or register (a named one below first)
      | \((..)                            # \(xx
      | \[([^\]]*)\]                      # \[name]
      | (.)                               # \-, \e, \&, ...
    )""",
    re.VERBOSE,
)
_STRING = re.compile(r"\\\*(?:\[(\w\w)\]|\((\w\w))")
_SINGLE = {"-": "-", "e": "\\", " ": " ", "~": " ", "0": " ", "\\": "\\", "'": "'", "`": "`"}
_TEXT_MACROS = {"B", "I", "BR", "IR", "RB", "RI", "BI", "IB", "SM", "SB", "SH", "SS"}
_BREAK_MACROS = {"PP", "P", "LP", "TP", "IP", "SH", "SS", "HP", "TQ", "sp", "br", "RS", "RE"}
# Punctuation written as ASCII where an encoding lacks it.
_ASCII_PUNCTUATION = str.maketrans({
    "\u2014": "-", "\u2013": "-", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
    "\u00bb": '"', "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2039": "'", "\u203a": "'",
    "\u2026": "...", "\u2022": "*", "\u00a9": "(c)", "\u00d7": "x", "\u00b0": " ",
    "\u2122": "(TM)", "\u00ae": "(R)", "\u00a0": " ",
})  # fmt: skip


def _unescape(line: str) -> str:
    line = _STRING.sub(lambda m: _NAMED.get(m.group(1) or m.group(2), ""), line)

    def replace(match: re.Match[str]) -> str:
        two, name, single = match.groups()
        if two or name:
            return _NAMED.get(two or name, "")
        return _SINGLE.get(single or "", "")

    return _ESCAPE.sub(replace, line)


def paragraphs(path: Path) -> list[str]:
    """The text of a manual page's paragraphs, markup removed."""
    try:
        source = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError):
        return []
    found: list[str] = []
    current: list[str] = []
    for raw in source.splitlines():
        line = raw.split('\\"', 1)[0]
        if line.startswith((".", "'")):
            macro, _, rest = line[1:].strip().partition(" ")
            if macro in _BREAK_MACROS and current:
                found.append(" ".join(current))
                current = []
            if macro in _TEXT_MACROS and rest:
                current.append(rest.replace('"', ""))
            continue
        current.append(line)
    if current:
        found.append(" ".join(current))
    cleaned = (" ".join(_unescape(p).split()) for p in found)
    return [p for p in cleaned if sum(c.isalpha() for c in p) >= 20]


def encode(paragraph: str, codec: str) -> bytes | None:
    """The paragraph in ``codec``, punctuation it lacks as ASCII; None if a letter is lacking."""
    if codec == "windows-1258":
        paragraph = to_cp1258(paragraph)
    for text in (paragraph, paragraph.translate(_ASCII_PUNCTUATION)):
        try:
            return text.encode(codec)
        except UnicodeEncodeError:
            pass
    return None


def _cut(paragraph: str, codec: str, room: int) -> bytes:
    """The longest start of ``paragraph`` that takes at most ``room`` bytes in ``codec``, cut
    after a word where it has spaces (after a character in Chinese and Japanese)."""
    words = paragraph.split(" ")
    pieces = words if len(words) > 1 else list(paragraph)
    joiner = " " if len(words) > 1 else ""
    best = b""
    for n in range(1, len(pieces) + 1):
        encoded = encode(joiner.join(pieces[:n]), codec)
        if encoded is None or len(encoded) > room:
            break
        best = encoded
    return best


def text_of(
    pages: list[Path],
    codec: str,
    low: int,
    high: int,
    rng: random.Random,
    paragraphs_of: Callable[[Path], list[str]] = paragraphs,
) -> bytes | None:
    """Consecutive paragraphs (``paragraphs_of``) of a page drawn at random until the text is
    ``low``-``high`` bytes long; None when no page gives ``low`` bytes."""
    target = rng.randint(low, high)
    for _ in range(20):
        found = paragraphs_of(rng.choice(pages))
        if not found:
            continue
        start = rng.randrange(len(found))
        parts: list[bytes] = []
        size = 0
        for paragraph in found[start:] + found[:start]:
            encoded = encode(paragraph, codec)
            if encoded is None:
                continue
            if size + len(encoded) > target:
                encoded = _cut(paragraph, codec, target - size)
            if encoded:
                parts.append(encoded)
                size += len(encoded) + 1
            if size >= low:
                break
        if size >= low:
            return b" ".join(parts)
    return None


def main() -> None:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--man-dir", type=Path, default=Path("/usr/share/man"))
    args = parser.parse_args()
    write_from_args(
        args, lambda language: sorted((args.man_dir / language).glob("man*/*.gz")), text_of, 5
    )


if __name__ == "__main__":
    main()
