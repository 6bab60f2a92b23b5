"""Detection on pages of ASCII text and one kind of sign (`¢`, `Nº`, `½`, `x²`, `µm`, ...).

Usage: python benchmarks/eval_signs.py [--failures]

Sentences in seven languages written in windows-1252 (English, German, French, Spanish,
Italian, Dutch, Portuguese), each followed by one of 18 signs of running text that other
single-byte encodings read as letters (ISO-8859-16 `ą` for `¢`, windows-1250 `ş` for `º`,
ISO-8859-15 `œ` for `½`, ISO-8859-2 `ľ` for `µ`, ...), once, twice and five times, with no URL
and with a `.com` URL: 756 undeclared pages. A page is right when ``decode_html`` gives its
text. Printed: the pages right per sign, and with ``--failures`` each wrong page.
"""

from __future__ import annotations

import argparse
from collections import Counter

from scrapy_charset.sniffing import decode_html

SENTENCES = {
    "en": "The report says that our team will meet with you and the board before the end of "
    "the year.",
    "de": "Wir haben das Haus gesehen und es ist gut, aber die Stadt ist nicht weit von hier "
    "entfernt.",
    "fr": "Nous avons vu la maison et elle est bonne, mais la ville est loin de la mer et du "
    "port.",
    "es": "Hemos visto la casa y es muy buena, pero la ciudad no esta cerca del mar ni del "
    "puerto.",
    "it": "Abbiamo visto la casa ed era bella, ma la citta non e vicina al mare e non ha un "
    "porto.",
    "nl": "We hebben het huis gezien en het is goed, maar de stad is niet dicht bij de zee of "
    "haven.",
    "pt": "Nos vimos a casa e ela e boa, mas a cidade nao fica perto do mar nem do porto da "
    "regiao.",
}
SIGNS = [
    "© 2024 Acme", "Acme®", "25 °C", "10 €", "£10", "§ 5", "« citation »", "1 µm", "½ kg",
    "x² + y³", "Home · About", "5 × 3", "± 2", "¿Qué?", "¡Hola!", "Nº 5", "1ª vez", "30 ¢",
]  # fmt: skip
COUNTS = (1, 2, 5)
URLS = (None, "http://www.example.com/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true")
    args = parser.parse_args(argv)
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    failures = []
    for language, sentence in SENTENCES.items():
        for sign in SIGNS:
            for count in COUNTS:
                text = "<p>" + " ".join([f"{sentence} {sign}"] * count) + "</p>"
                for url in URLS:
                    decoded, decision = decode_html(text.encode("cp1252"), url=url)
                    total[sign] += 1
                    if decoded == text:
                        right[sign] += 1
                    else:
                        failures.append(f"{language} {sign!r} x{count} {url}: {decision}")
    print(f"{sum(right.values())}/{sum(total.values())} pages right (windows-1252, undeclared)")
    for sign in SIGNS:
        print(f"  {sign:14} {right[sign]:3}/{total[sign]}")
    if args.failures:
        for failure in failures:
            print(" ", failure)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
