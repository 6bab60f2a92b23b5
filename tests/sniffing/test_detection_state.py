"""Detection keeps nothing of a page once the next is detected: every cache of the sniffing
modules holds a bounded number of entries however many different pages go through it (an
unbounded ``functools.cache`` on a function of a page's bytes would keep each page's sample for
the life of the crawl). Real pages in real encodings, each a different text."""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Iterator

from scrapy_charset.sniffing import decode_html

_WORDS = (
    "café crème déjà où été très garçon noël façade élève château fenêtre größe übermäßig "
    "schön müde straße häuser tür grün öffnen für año niño señor canción acción también "
    "żółw łódź gęś ćma źdźbło są się będą też już Ťažký ľudia čas šťastie ďalej"
).split()
_ENCODINGS = ("windows-1252", "ISO-8859-15", "windows-1250", "ISO-8859-2", "windows-1257")


# Clear German words with a foreign name (the rule that looks at the words around the name).
_GERMAN = (
    "Die Bibliothek ist von Montag bis Freitag geöffnet, und wir haben neue Bücher über die"
    " Geschichte der Stadt. Der Eintritt ist frei, und die Führung dauert eine Stunde."
)
_NAMES = ("Norðurþing", "Þórshöfn", "Strandabyggð", "Ísafjörður", "Võro", "Gdańsk")


def _pages(count: int, seed: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    for index in range(count):
        if index % 2:
            words = f"{_GERMAN} Ort {index}: {rng.choice(_NAMES)}."
            encoding = "windows-1250" if words.endswith("ńsk.") else "windows-1252"
        else:
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 60)))
            encoding = rng.choice(_ENCODINGS)
        text = f"<html><body><p>Seite {index}: {words}</p></body></html>"
        yield text.encode(encoding, "replace")


def _cache_sizes() -> dict[str, int]:
    sizes = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("scrapy_charset."):
            continue
        for attribute, value in vars(module).items():
            if isinstance(value, functools._lru_cache_wrapper):  # type: ignore[attr-defined]
                sizes[f"{name}.{attribute}"] = value.cache_info().currsize
            elif isinstance(value, dict) and attribute.isupper() and attribute.startswith("_"):
                sizes[f"{name}.{attribute}"] = len(value)
    return sizes


def test_detection_caches_do_not_grow_with_the_pages() -> None:
    urls = [None, "http://www.example.de/", "http://www.example.pl/", "http://example.com/"]
    for number, page in enumerate(_pages(200, 1)):
        decode_html(page, url=urls[number % len(urls)])
    before = _cache_sizes()
    for number, page in enumerate(_pages(600, 2)):
        decode_html(page, url=urls[number % len(urls)])
    after = _cache_sizes()
    grown = {name: (before.get(name, 0), size) for name, size in after.items()
             if size > before.get(name, 0) + 32}  # fmt: skip
    assert not grown, f"caches that keep growing with the pages: {grown}"
