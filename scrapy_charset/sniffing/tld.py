"""The locale default a browser falls back to, chosen from the URL's top-level domain.

The HTML Standard suggests a default encoding per user locale ("the encoding sniffing
algorithm", table of locales); browsers that lack a locale signal use the country-code TLD
instead. Each ccTLD below is mapped to the encoding the Standard suggests for the locale of
its country. TLDs not listed (``.com``, ``.org``, most of Western Europe, …) get windows-1252.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ..encoding import Encoding, get_encoding

_TLD_LOCALE_DEFAULTS: dict[str, str] = {
    # Arabic (ar) and Persian (fa): windows-1256.
    **dict.fromkeys(
        (
            "ae", "bh", "dz", "eg", "iq", "ir", "jo", "kw", "lb", "ly", "ma", "om", "qa",
            "sa", "sd", "sy", "tn", "ye",
        ),
        "windows-1256",
    ),
    # Belarusian, Bulgarian, Kazakh, Kyrgyz, Macedonian, Russian, Serbian, Tajik, Ukrainian.
    **dict.fromkeys(
        ("by", "bg", "kz", "kg", "mk", "ru", "su", "rs", "tj", "ua", "xn--p1ai"),
        "windows-1251",
    ),
    # Czech, Croatian, Slovak: windows-1250; Hungarian, Polish, Slovenian: ISO-8859-2.
    **dict.fromkeys(("cz", "hr", "sk"), "windows-1250"),
    **dict.fromkeys(("hu", "pl", "si"), "ISO-8859-2"),
    # Estonian, Latvian, Lithuanian: windows-1257.
    **dict.fromkeys(("ee", "lv", "lt"), "windows-1257"),
    "gr": "ISO-8859-7",
    "il": "windows-1255",
    "jp": "Shift_JIS",
    "kr": "EUC-KR",
    "th": "windows-874",
    "tr": "windows-1254",
    "vn": "windows-1258",
    # Chinese: GBK (the Standard's gb18030 decodes identically) and Big5.
    "cn": "GBK",
    **dict.fromkeys(("tw", "hk", "mo"), "Big5"),
}

TLD_DEFAULTS: dict[str, Encoding] = {
    tld: get_encoding(name) for tld, name in _TLD_LOCALE_DEFAULTS.items()
}


def tld_of(url: str | bytes | None) -> str | None:
    """The last label of ``url``'s host, lowercased; ``None`` when there is none (or an IP)."""
    if url is None:
        return None
    if isinstance(url, (bytes, bytearray)):
        url = bytes(url).decode("latin-1")
    if not isinstance(url, str):
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".")
    label = host.rsplit(".", 1)[-1]
    if not label or label.isdigit() or ":" in host:
        return None
    if label.isascii():  # (what the IDNA codec gives back for it, without the codec's cost)
        return label.lower()
    try:
        # Internationalized TLDs are compared in their Punycode form.
        return label.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return label.lower()


def tld_default(tld: str | None) -> Encoding | None:
    """The locale default for ``tld``, or ``None`` for TLDs that get windows-1252."""
    return TLD_DEFAULTS.get(tld) if tld else None


# Where Chromium's table differs from the Standard's (measured with undeclared UTF-8, which
# its detector never picks, so the TLD's entry shows: tests/data/chromium/FINDINGS.md): the
# Arabic and Baltic entries are swapped (.ee too), and the other Arabic TLDs, .by, .kg, .kz,
# .su, .tj, .рф and .mo have none (windows-1252; tests/sniffing/test_unknown_labels.py).
_CHROMIUM_TLD_DEFAULTS: dict[str, str | None] = {
    "eg": "windows-1257", "ir": "windows-1257", "lt": "windows-1256", "lv": "windows-1256",
    "sa": None, "ae": None, "ee": "windows-1256",
    **dict.fromkeys(
        ("bh", "dz", "iq", "jo", "kw", "lb", "ly", "ma", "om", "qa", "sd", "sy", "tn", "ye",
         "by", "kg", "kz", "su", "tj", "xn--p1ai", "mo"),
    ),
}  # fmt: skip


def chromium_tld_default(tld: str | None) -> Encoding | None:
    """The encoding Chromium falls back to on ``tld`` (its table, as measured), or ``None``
    for windows-1252; where it was not measured, the Standard's (:func:`tld_default`)."""
    if tld in _CHROMIUM_TLD_DEFAULTS:
        name = _CHROMIUM_TLD_DEFAULTS[tld]
        return get_encoding(name) if name else None
    return tld_default(tld)
