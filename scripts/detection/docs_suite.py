"""Write a labelled suite of plain texts from the machine's translated Debian documentation
(not committed).

Usage: python scripts/detection/docs_suite.py OUT [--bytes LOW HIGH] [--seed N] [--pages N]
       [--rare] [--doc-root /usr/share]
       python benchmarks/eval_text_suite.py OUT --failures

Debian's translated manuals (``apt-get install installation-guide-amd64 debian-faq-de
debian-reference-fr developers-reference-ru gimp-help-hu ...``; GIMP's manual among them)
are web pages in some thirty languages: running prose written by people, with the commands,
file names, English terms and typography of technical pages. The detection rules were never written from them, so they are an
evaluation set independent of the other suites. Each HTML page's paragraphs, list items,
table cells and headings are its paragraphs (markup removed, entities resolved); from there
as ``manpages_suite.py`` does: for each language and each legacy encoding its pages are
written in (``gettext_suite.ENCODINGS``), consecutive paragraphs of a page drawn at random
until the text holds ``--bytes`` bytes, written as ``OUT/<language>/<encoding>.txt``. The
texts depend on the packages installed: quote counts with the machine they were measured on.
"""

from __future__ import annotations

import random
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from gettext_suite import suite_parser, write_from_args
from manpages_suite import text_of

# Where each manual keeps a language's pages: a glob under --doc-root, {l} the language.
_MANUALS = (
    "doc/installation-guide-amd64/{l}/*.html",
    "doc/debian/FAQ/{l}/*.html",
    "debian-reference/*.{l}.html",
    "developers-reference/{l}/*.html",
    "gimp/2.0/help/{l}/*.html",
)
# The languages' folder or suffix names where they differ from gettext_suite's.
_NAMES = {"zh_CN": ("zh_CN", "zh-cn"), "pt_BR": ("pt-br", "pt_BR"), "nb": ("nb", "nn")}
_BLOCKS = frozenset({"p", "li", "dd", "dt", "td", "th", "h1", "h2", "h3", "h4", "title"})
_SKIPPED = frozenset({"pre", "script", "style", "code"})


class _Paragraphs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.current: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in _BLOCKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.current.append(data)

    def flush(self) -> None:
        text = " ".join("".join(self.current).split())
        if sum(c.isalpha() for c in text) >= 20:
            self.found.append(text)
        self.current = []


@cache
def paragraphs(path: Path) -> list[str]:
    """The text of an HTML page's paragraphs, markup removed."""
    try:
        source = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    parser = _Paragraphs()
    parser.feed(source)
    parser.close()
    parser.flush()
    return parser.found


def pages_of(root: Path, language: str) -> list[Path]:
    """Every page of the installed manuals in ``language``."""
    found: set[Path] = set()
    for name in _NAMES.get(language, (language,)):
        for pattern in _MANUALS:
            found.update(root.glob(pattern.format(l=name)))
    return sorted(found)


def main() -> None:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--doc-root", type=Path, default=Path("/usr/share"))
    args = parser.parse_args()

    def text_for(
        pages: list[Path], codec: str, low: int, high: int, rng: random.Random
    ) -> bytes | None:
        return text_of(pages, codec, low, high, rng, paragraphs)

    write_from_args(args, lambda language: pages_of(args.doc_root, language), text_for, 3)


if __name__ == "__main__":
    main()
