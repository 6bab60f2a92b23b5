"""``decode_html`` against what Chromium did with the same bytes, headers and URL.

Fixture: ``tests/data/chromium/documents.jsonl.gz`` (recorded by ``scripts/chromium/
record_documents.py``; the measured rules are in ``tests/data/chromium/FINDINGS.md``).
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from scrapy_charset.encoding import decode, lookup
from scrapy_charset.sniffing import Source, decode_html
from tests.support.chromium import content_type_values, marker_in_source, read_recording

# Source text equals DOM text only without markup, references, CR and NUL.
NOT_PLAIN_TEXT = set("<&\r\0")
ASCII_WHITESPACE = "\t\n\x0c\r "

BROWSER, DOCUMENTS = read_recording("documents.jsonl.gz")

# Chromium rendered these as text/plain or XML: decode_html covers HTML documents only.
# The xml_types group (XML media types) is checked through the middleware in
# tests/integration/test_explicit_encoding.py.
NOT_HTML = {
    "header-bad-type-slash",
    "header-two-headers-second-plain",
    "header-xhtml-type",
    *(
        d["id"]
        for d in DOCUMENTS
        if d["group"] == "xml_types" and not d["id"].startswith("type-text-html")
    ),
}

# Where Chromium's guess is wrong and the true encoding is known, the project may do better:
# document id -> (true encoding, reason). The test then asserts the true encoding and text.
_UNDECLARED_UTF8 = "valid UTF-8 body; Chromium never detects UTF-8 over HTTP (windows-1252)"
EXPECTED_DISAGREEMENTS: dict[str, tuple[str, str]] = {
    **{
        f"undeclared-utf8-{lang}-{size}": ("UTF-8", _UNDECLARED_UTF8)
        for lang in ("ru", "ja", "fr", "zh-hans", "el")
        for size in ("short", "long")
    },
    **{
        f"undeclared-utf8-at-{offset}": ("UTF-8", _UNDECLARED_UTF8)
        for offset in (300, 1100, 3000, 10000, 70000)
    },
    "bom-utf8-after-space": ("UTF-8", "valid UTF-8 after a space; Chromium sees no BOM, no UTF-8"),
    "nobom-UTF-16LE-undeclared": ("UTF-16LE", "Chromium never detects BOM-less UTF-16"),
    "nobom-UTF-16BE-undeclared": ("UTF-16BE", "Chromium never detects BOM-less UTF-16"),
    "undeclared-ISO-2022-JP-ja-short": ("ISO-2022-JP", "Chromium never detects ISO-2022-JP"),
    "undeclared-ISO-2022-JP-ja-long": ("ISO-2022-JP", "Chromium never detects ISO-2022-JP"),
    "undeclared-x-mac-cyrillic-ru-short": ("x-mac-cyrillic", "Chromium maps it to windows-1251"),
    "undeclared-x-mac-cyrillic-ru-long": ("x-mac-cyrillic", "Chromium maps it to windows-1251"),
    **{
        d["id"]: ("UTF-8", _UNDECLARED_UTF8 + " or the TLD's legacy encoding")
        for d in DOCUMENTS
        if d["group"] == "tld" and d["id"].endswith("-ru-utf8")
    },
    "undeclared-ISO-8859-2-cs-short": ("ISO-8859-2", "Chromium guesses windows-1252 for Czech"),
    "undeclared-ISO-8859-2-cs-long": ("ISO-8859-2", "Chromium guesses windows-1252 for Czech"),
    "undeclared-windows-1258-vi-short": ("windows-1258", "Chromium guesses windows-1252"),
    "undeclared-windows-1258-vi-long": ("windows-1258", "Chromium guesses windows-1252"),
    **{
        doc_id: ("windows-1252", "Chromium follows the TLD although the text then differs")
        for doc_id in (
            "tld-pl-fr-1252",
            "tld-cz-fr-1252",
            "tld-lt-fr-1252",
            "tld-pl-few-high-bytes",
            "tld-il-few-high-bytes",
            "tld-eg-few-high-bytes",
            "tld-lt-few-high-bytes",
        )
    },  # fmt: skip
    **{
        f"unknown-label-latin9-fr-{size}-unlabelled": ("ISO-8859-15", "Chromium: windows-1250")
        for size in ("short", "long")
    },
    "english-em-dash-long": ("windows-1252", "Chromium: macintosh (`wasóas` for `was—as`)"),
    **{
        f"english-micro-{size}": ("windows-1252", "Chromium: Big5 (`5µm` as a Big5 pair)")
        for size in ("short", "long")
    },
    "sign-de-numero-short": ("windows-1252", "Chromium: ISO-8859-4 (`Nŗ 5` for `Nº 5`)"),
    **{
        f"rare-af-{size}": ("windows-1252", "Chromium: windows-1250 (Afrikaans `lêer` as `lęer`)")
        for size in ("short", "long")
    },
    **{
        f"names-{name}-{size}": (encoding, f"Chromium: {chromium}")
        for name, encoding, chromium in (
            ("fi-sakki", "ISO-8859-15", "windows-1252 (Finnish `šakki` as `¨akki`)"),
            ("fi-kambodza", "ISO-8859-15", "windows-1250 (`Kambodža` as `Kambod¸a`)"),
            ("af-leer", "windows-1252", "windows-1250 (Afrikaans `lêer` as `lęer`)"),
            ("oc-dorsier", "windows-1252", "windows-1250 (Occitan `fòtos` as `fňtos`)"),
            ("de-poznan", "windows-1250", "windows-1252 (`Poznań` among German words as `Poznañ`)"),
        )
        for size in ("short", "long")
    },
    **{
        d["id"]: ("UTF-8", "UTF-8 with one invalid sequence; Chromium: as for valid UTF-8")
        for d in DOCUMENTS
        if d["group"] == "nearly_utf8"
    },
    **{
        d["id"]: ("windows-1252", "Chromium: ISO-8859-2 (a heading's permalink `¶` as `ś`)")
        for d in DOCUMENTS
        if d["group"] == "permalinks" and d["chromium"]["charset"] == "ISO-8859-2"
    },
    "eof-UTF-8-e381-undeclared": ("UTF-8", _UNDECLARED_UTF8),
    "eof-UTF-8-f09f98-undeclared": ("UTF-8", _UNDECLARED_UTF8),
}


# French ISO-8859-15 labelled `latin9` (no browser knows the name): read as Chromium's
# detector shows such pages, windows-1252 (`¤` for `€`; unknown_labels.jsonl.gz, 24 pages),
# though in this recording Chromium showed these two as windows-1250.
LATIN9_LABELLED = {f"unknown-label-latin9-fr-{size}" for size in ("short", "long")}


# Text in an encoding no browser has (labelled cp850, cp852, johab, koi8-t, or unlabelled): any
# reading is mojibake, and the detectors' guesses differ. The test asserts the decision is a
# guess (a detection, or the default when the bytes read as no language); for KOI8-T, whose
# KOI8-R and KOI8-U readings are the same text, and for Johab (valid GBK), Chromium's text.
# (More such pages: tests/sniffing/test_unknown_labels.py.)
NO_BROWSER_ENCODING = {
    f"unknown-label-{label}-{size}{kind}": label
    for label in ("cp850-fr", "cp852-cs", "johab-ko", "koi8-t-tg")
    for size in ("short", "long")
    for kind in ("", "-unlabelled")
}


# Undeclared ISO-8859-16 Romanian without „ ”: its ș ț are the bytes of ş ţ in windows-1250 and
# ISO-8859-2, so the text reads with the cedilla (Chromium: windows-1252, mojibake).
ROMANIAN_CEDILLA = {
    "unknown-label-iso-8859-16-ro-short-unlabelled",
    "unknown-label-iso-8859-16-ro-long-unlabelled",
}
_COMMA_TO_CEDILLA = str.maketrans("ȘșȚț", "ŞşŢţ")


# Undeclared windows-1252 text whose only non-ASCII bytes are the quotes `‘` `’` next to
# letters (`don’t`, `l’estiu`, Dutch `’s`): every windows-125x encoding reads it alike, and
# Chromium named windows-1250 for the short Italian, Catalan and both Dutch pages, otherwise
# windows-1252. The project reads them all as windows-1252 (never as macintosh `í` `ë`).
QUOTES_ONLY = {d["id"] for d in DOCUMENTS if d["group"] == "latin_quotes"}


# Chromium drops an incomplete UTF-16 code unit at the end of a document; the Encoding
# Standard's decode (and Chromium's own TextDecoder) ends with U+FFFD, which is expected here.
UTF16_TAIL_DROPPED = {
    "eof-UTF-16LE-41",
    "eof-UTF-16LE-3dd8",
    "eof-UTF-16BE-d83d",
    "header-utf-16-ascii-body",
}


def chromium_text(document: dict[str, Any]) -> str | None:
    text: str | None = document["chromium"]["text"]
    if text is not None and document["id"] in UTF16_TAIL_DROPPED:
        text += "\ufffd"
    return text


def title_in_source(text: str) -> str | None:
    start = text.find("<title>")
    end = text.find("</title>", start)
    if start < 0 or end < 0:
        return None
    # document.title strips and collapses ASCII whitespace.
    return " ".join(text[start + len("<title>") : end].split())


def html_documents() -> list[dict[str, Any]]:
    return [d for d in DOCUMENTS if d["id"] not in NOT_HTML]


def test_fixture_is_complete() -> None:
    assert BROWSER["browser"] == "Chromium" and BROWSER["lang_flag"] == "en-US"
    assert len(DOCUMENTS) >= 560
    assert all("error" not in d["chromium"] for d in DOCUMENTS)
    # The documents left out are exactly those Chromium did not parse as HTML.
    assert {d["id"] for d in DOCUMENTS if d["chromium"]["content_type"] != "text/html"} == NOT_HTML
    for doc_id, (true_encoding, _) in EXPECTED_DISAGREEMENTS.items():
        document = next(d for d in DOCUMENTS if d["id"] == doc_id)
        assert document["true_encoding"] == true_encoding
        assert lookup(document["chromium"]["charset"]) != lookup(true_encoding)


@pytest.mark.parametrize("document", html_documents(), ids=lambda d: d["id"])
def test_decode_html_matches_chromium(document: dict[str, Any]) -> None:
    body = base64.b64decode(document["body_b64"])
    text, decision = decode_html(body, content_type_values(document), url=document["url"])
    chromium = document["chromium"]

    if document["id"] in EXPECTED_DISAGREEMENTS:
        true_encoding = EXPECTED_DISAGREEMENTS[document["id"]][0]
        assert decision.encoding == lookup(true_encoding), document["description"]
        assert marker_in_source(text) == document["expected_marker"]
        return

    if document["id"] in LATIN9_LABELLED:
        assert (decision.encoding, decision.source) == (lookup("windows-1252"), Source.DETECTION)
        return

    if document["id"] in ROMANIAN_CEDILLA:
        assert decision.source is Source.DETECTION
        assert marker_in_source(text) == document["expected_marker"].translate(_COMMA_TO_CEDILLA)
        return

    if document["id"] in QUOTES_ONLY:
        assert decision.encoding == lookup("windows-1252")
        assert decode(body, lookup(chromium["charset"])) == text
        assert marker_in_source(text) == chromium["marker"] == document["expected_marker"]
        return

    if document["id"] in NO_BROWSER_ENCODING:
        assert decision.source in (Source.DETECTION, Source.DEFAULT)
        if NO_BROWSER_ENCODING[document["id"]] in ("koi8-t-tg", "johab-ko"):
            assert marker_in_source(text) == chromium["marker"]
        return

    expected = lookup(chromium["charset"])
    assert expected is not None
    assert decision.encoding == expected, (
        f"{document['description']}: Chromium {expected.name}, ours {decision.encoding.name} "
        f"({decision.source.value})"
    )
    marker = marker_in_source(text)
    if chromium["marker"] is not None and marker is not None and not NOT_PLAIN_TEXT & set(marker):
        assert marker == chromium["marker"]
    elif chromium["text"] is not None and not NOT_PLAIN_TEXT & set(text):
        # No markup at all (e.g. the replacement encoding's single U+FFFD): the parser
        # drops leading whitespace before <html> and keeps the rest as text.
        assert text.lstrip(ASCII_WHITESPACE) == chromium_text(document)
    title = title_in_source(text)
    # (A script may set document.title itself.)
    if (
        chromium["title"]
        and title is not None
        and not NOT_PLAIN_TEXT & set(title)
        and "<script" not in text
    ):
        assert title == chromium["title"]
    if document["group"] == "end_of_input" and chromium["text"] is not None:
        # What follows </html> (a newline and the incomplete sequence) ends the body text.
        tail = text[text.rindex("</html>") + len("</html>") :]
        expected_text = chromium_text(document)
        assert expected_text is not None and expected_text.endswith(tail), f"tail {tail!a}"
