"""Write a labelled suite of plain texts from Chromium's translated interface strings (not
committed).

Usage: python scripts/detection/chromium_strings_suite.py OUT [--bytes LOW HIGH] [--seed N]
       [--pages N] [--rare] [--locale-dir /usr/lib/chromium/locales]
       python benchmarks/eval_text_suite.py OUT --failures

Debian's ``chromium-l10n`` package holds the browser's interface in some 55 languages, one
``<locale>.pak`` file each: menus, settings, dialogs and help text written by translators,
with the quotes, dashes and product names they used. The detection rules were never written
from it: an evaluation set independent of ``texts.py``, of the gettext catalogs
(``gettext_suite.py``) and of the manual pages (``manpages_suite.py``). Each string's
placeholders (``$1``, ``<ph>``, ``{COUNT}``) become the word ``data``, markup is left out, and
strings without letters are skipped; the texts are then drawn and written as
``gettext_suite.py`` does (its ``text_of`` and ``write_from_args``), in the same layout
``benchmarks/eval_text_suite.py`` reads. Languages Chromium is not translated into (Basque,
Maltese, Esperanto, ...) have no pages. The texts depend on the package's version: quote
counts with the machine they were measured on.
"""

from __future__ import annotations

import itertools
import re
import struct
from pathlib import Path

from gettext_suite import suite_parser, text_of, write_from_args

# The suites' language directories (gettext's names) to Chromium's locale names.
_LOCALES = {"pt_BR": "pt-BR", "zh_CN": "zh-CN", "zh_TW": "zh-TW"}
_PLACEHOLDER = re.compile(r"\$\d|<ph\b[^>]*>.*?</ph>|\{[^{}]*\}|&[a-z]+;")
_MARKUP = re.compile(r"<[^<>]*>")


def pak_strings(data: bytes) -> list[bytes]:
    """The resources of a Chromium ``.pak`` file (format 4 or 5), in order."""
    version = struct.unpack_from("<I", data)[0]
    if version == 5:
        count = struct.unpack_from("<H", data, 8)[0]
        table = 12
    elif version == 4:
        count = struct.unpack_from("<I", data, 4)[0]
        table = 9
    else:
        raise ValueError(f"unknown .pak format {version}")
    # (Each entry is a 2-byte id and a 4-byte offset; one more entry marks the end.)
    offsets = [struct.unpack_from("<I", data, table + 6 * i + 2)[0] for i in range(count + 1)]
    return [data[start:end] for start, end in itertools.pairwise(offsets)]


def messages(locale_dir: Path, language: str) -> list[str]:
    """Every interface string of the language's ``.pak`` file, cleaned, without repeats."""
    path = locale_dir / f"{_LOCALES.get(language, language)}.pak"
    if not path.exists():
        return []
    found: dict[str, None] = {}
    for resource in pak_strings(path.read_bytes()):
        try:
            text = resource.decode("utf-8")
        except UnicodeDecodeError:
            continue  # (not text: an image or a compressed resource)
        text = " ".join(_MARKUP.sub("", _PLACEHOLDER.sub("data", text)).split())
        if len(text) >= 3 and any(c.isalpha() for c in text):
            found[text] = None
    return list(found)


def main() -> None:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--locale-dir", type=Path, default=Path("/usr/lib/chromium/locales"))
    args = parser.parse_args()
    write_from_args(args, lambda language: messages(args.locale_dir, language), text_of, 200)


if __name__ == "__main__":
    main()
