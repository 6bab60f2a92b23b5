"""Serve designed HTML documents with exact headers and record how Chromium decodes them.

Writes ``tests/data/chromium/documents.jsonl.gz``: first line metadata (browser version, flags,
locale), then one JSON object per document: ``id``, ``group``, ``description``, ``url``,
``headers`` (``[name, value]`` in sent order), ``body_b64``, ``true_encoding`` (what the bytes
really are, when known), ``expected_marker`` (the sample text the marker holds) and ``chromium``:
``charset`` (``document.characterSet``), ``marker`` (text of ``#m``, or null), ``text`` (the
document's text when short, else null), ``content_type`` (``document.contentType``) or ``error``.

Usage: ``python scripts/chromium/record_documents.py [--only GROUP]``
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import socket
import socketserver
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser import chromium, describe  # noqa: E402
from samples import SAMPLES, long_form, windows_1258_form  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "chromium" / "documents.jsonl.gz"
EXTRA_ARGS = [
    "--host-resolver-rules=MAP * 127.0.0.1",
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,HttpsFirstModeV2",
]


@dataclass
class Doc:
    id: str
    group: str
    description: str
    body: bytes
    headers: list[tuple[str, str]] = field(default_factory=lambda: [("Content-Type", "text/html")])
    host: str = "127.0.0.1"
    true_encoding: str | None = None
    expected_marker: str | None = None


# (WHATWG encoding name, sample language, Python codec) for the legacy families.
FAMILIES: list[tuple[str, str, str]] = [
    ("Shift_JIS", "ja", "shift_jis"),
    ("EUC-JP", "ja", "euc_jp"),
    ("ISO-2022-JP", "ja", "iso2022_jp"),
    ("GBK", "zh-hans", "gbk"),
    ("gb18030", "zh-hans", "gb18030"),
    ("Big5", "zh-hant", "big5"),
    ("EUC-KR", "ko", "euc_kr"),
    ("windows-1251", "ru", "cp1251"),
    ("KOI8-R", "ru", "koi8_r"),
    ("IBM866", "ru", "cp866"),
    ("ISO-8859-5", "ru", "iso8859_5"),
    ("x-mac-cyrillic", "ru", "mac_cyrillic"),
    ("KOI8-U", "uk", "koi8_u"),
    ("windows-1253", "el", "cp1253"),
    ("ISO-8859-7", "el", "iso8859_7"),
    ("windows-1255", "he", "cp1255"),
    ("ISO-8859-8", "he", "iso8859_8"),
    ("windows-1256", "ar", "cp1256"),
    ("ISO-8859-6", "ar", "iso8859_6"),
    ("windows-874", "th", "cp874"),
    ("windows-1250", "pl", "cp1250"),
    ("ISO-8859-2", "cs", "iso8859_2"),
    ("windows-1250", "hu", "cp1250"),
    ("windows-1254", "tr", "cp1254"),
    ("windows-1258", "vi", "cp1258"),
    ("windows-1257", "lt", "cp1257"),
    ("windows-1252", "fr", "cp1252"),
    ("windows-1252", "de", "cp1252"),
]

# The French sample is byte-identical in windows-1252, windows-1254 and ISO-8859-15, so a
# declared windows-1254 (REAL) or ISO-8859-15 (DECOY) shows in characterSet without mojibake.
FR = SAMPLES["fr"]
REAL = "windows-1254"
DECOY = "iso-8859-15"


def sample_text(lang: str, codec: str) -> str:
    text = SAMPLES[lang]
    return windows_1258_form(text) if codec == "cp1258" else text


def page(head: str, marker: str, *, before_marker: str = "", after: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head>{head}<title>t</title></head><body>"
        f'{before_marker}<p id="m">{marker}</p>{after}</body></html>\n'
    )


def ct(value: str) -> list[tuple[str, str]]:
    return [("Content-Type", value)]


def fr_doc(
    id: str,
    group: str,
    description: str,
    head: str,
    *,
    headers: list[tuple[str, str]] | None = None,
    before_marker: str = "",
    after: str = "",
) -> Doc:
    body = page(head, FR, before_marker=before_marker, after=after).encode("cp1252")
    return Doc(
        id,
        group,
        description,
        body,
        headers if headers is not None else ct("text/html"),
        true_encoding="windows-1252",
        expected_marker=FR,
    )


# --- groups ---------------------------------------------------------------------------------


def bom_header_meta() -> Iterator[Doc]:
    """BOM versus Content-Type charset versus <meta>."""
    boms = {
        "UTF-8": (b"\xef\xbb\xbf", "utf-8"),
        "UTF-16LE": (b"\xff\xfe", "utf-16-le"),
        "UTF-16BE": (b"\xfe\xff", "utf-16-be"),
    }
    text = SAMPLES["ru"]
    for bom_name, (bom, codec) in boms.items():
        for header in (None, "windows-1251", "shift_jis", "utf-16le", "utf-8"):
            for meta in (None, "windows-1251"):
                head = f'<meta charset="{meta}">' if meta else ""
                body = bom + page(head, text).encode(codec)
                headers = ct(f"text/html; charset={header}") if header else ct("text/html")
                yield Doc(
                    f"bom-{bom_name}-h{header}-m{meta}",
                    "bom_header_meta",
                    f"{bom_name} BOM, header charset {header}, meta {meta}",
                    body,
                    headers,
                    true_encoding=bom_name,
                    expected_marker=text,
                )
    # BOM-less UTF-16 bodies and a BOM that is not at the start.
    for enc, codec in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
        body = page("", text).encode(codec)
        yield Doc(
            f"nobom-{enc}-header",
            "bom_header_meta",
            f"{enc} without BOM, declared in header",
            body,
            ct(f"text/html; charset={enc}"),
            true_encoding=enc,
            expected_marker=text,
        )
        yield Doc(
            f"nobom-{enc}-undeclared",
            "bom_header_meta",
            f"{enc} without BOM, undeclared",
            body,
            true_encoding=enc,
            expected_marker=text,
        )
    body = b" \xef\xbb\xbf" + page("", text).encode("utf-8")
    yield Doc(
        "bom-utf8-after-space",
        "bom_header_meta",
        "UTF-8 BOM after one space, undeclared",
        body,
        true_encoding="UTF-8",
        expected_marker=text,
    )
    # Header versus meta, no BOM.
    ru1251 = page('<meta charset="koi8-r">', text).encode("cp1251")
    yield Doc(
        "header-1251-meta-koi8",
        "bom_header_meta",
        "header windows-1251 beats meta koi8-r",
        ru1251,
        ct("text/html; charset=windows-1251"),
        "127.0.0.1",
        "windows-1251",
        text,
    )
    yield Doc(
        "header-utf7-meta-koi8",
        "bom_header_meta",
        "unknown header label utf-7, meta koi8-r",
        ru1251,
        ct("text/html; charset=utf-7"),
        "127.0.0.1",
        "windows-1251",
        text,
    )
    yield Doc(
        "header-utf8-body-1251",
        "bom_header_meta",
        "header utf-8 on a windows-1251 body",
        page("", text).encode("cp1251"),
        ct("text/html; charset=utf-8"),
        "127.0.0.1",
        "windows-1251",
        text,
    )
    yield Doc(
        "header-1251-body-utf8",
        "bom_header_meta",
        "header windows-1251 on a UTF-8 body",
        page("", text).encode("utf-8"),
        ct("text/html; charset=windows-1251"),
        "127.0.0.1",
        "UTF-8",
        text,
    )


META_FORMS: list[tuple[str, str]] = [
    ("charset-dq", f'<meta charset="{REAL}">'),
    ("charset-sq", f"<meta charset='{REAL}'>"),
    ("charset-unquoted", f"<meta charset={REAL}>"),
    ("charset-spaces-around-eq", f'<meta charset = "{REAL}">'),
    ("charset-upper", f'<META CHARSET="{REAL.upper()}">'),
    ("charset-value-padded", f'<meta charset=" {REAL} ">'),
    ("charset-label-iso-8859-9", '<meta charset="iso-8859-9">'),
    ("charset-label-latin5", '<meta charset="latin5">'),
    ("charset-selfclosing", f"<meta charset={REAL}/>"),
    ("charset-slash-separator", f"<meta/charset={REAL}>"),
    ("charset-tab-separator", f"<meta\tcharset={REAL}>"),
    ("charset-newline-in-tag", f'<meta\ncharset="{REAL}"\n>'),
    ("charset-unterminated-quote", f'<meta charset="{REAL}>'),
    ("charset-empty", '<meta charset="">'),
    ("charset-then-decoy-attr", f'<meta charset="{REAL}" charset="{DECOY}">'),
    ("charset-decoy-then-real", f'<meta charset="{DECOY}" charset="{REAL}">'),
    ("charset-unknown-then-real-meta", f'<meta charset="utf-7"><meta charset="{REAL}">'),
    ("charset-bogus-then-real-meta", f'<meta charset="foo"><meta charset="{REAL}">'),
    ("two-metas-real-first", f'<meta charset="{REAL}"><meta charset="{DECOY}">'),
    ("two-metas-decoy-first", f'<meta charset="{DECOY}"><meta charset="{REAL}">'),
    ("he-dq", f'<meta http-equiv="Content-Type" content="text/html; charset={REAL}">'),
    ("he-unquoted", f"<meta http-equiv=Content-Type content=text/html;charset={REAL}>"),
    ("he-content-first", f'<meta content="text/html; charset={REAL}" http-equiv="Content-Type">'),
    ("he-lowercase", f'<meta http-equiv="content-type" content="text/html; charset={REAL}">'),
    ("he-inner-dq", f'<meta http-equiv="Content-Type" content=\'text/html; charset="{REAL}"\'>'),
    ("he-inner-sq", f'<meta http-equiv="Content-Type" content="text/html; charset=\'{REAL}\'">'),
    (
        "he-inner-unterminated",
        f'<meta http-equiv="Content-Type" content="text/html; charset=\'{REAL}">',
    ),
    ("he-spaces-eq", f'<meta http-equiv="Content-Type" content="text/html; charset = {REAL}">'),
    ("he-upper-charset", f'<meta http-equiv="Content-Type" content="text/html; CHARSET={REAL}">'),
    (
        "he-trailing-param",
        f'<meta http-equiv="Content-Type" content="text/html; charset={REAL}; x=y">',
    ),
    ("he-charset-only", f'<meta http-equiv="Content-Type" content="charset={REAL}">'),
    ("he-xcharset", f'<meta http-equiv="Content-Type" content="text/html; xcharset={REAL}">'),
    (
        "he-two-charsets",
        f'<meta http-equiv="Content-Type" content="charset={REAL}; charset={DECOY}">',
    ),
    ("he-empty-charset", '<meta http-equiv="Content-Type" content="text/html; charset=">'),
    ("he-no-charset", '<meta http-equiv="Content-Type" content="text/html">'),
    ("content-without-he", f'<meta content="text/html; charset={REAL}">'),
    ("he-refresh", f'<meta http-equiv="refresh" content="text/html; charset={REAL}">'),
    ("he-without-content", '<meta http-equiv="Content-Type">'),
    ("name-charset", f'<meta name="charset" content="{REAL}">'),
    ("data-charset-attr", f'<meta data-charset="{REAL}">'),
    (
        "charset-beats-he",
        f'<meta charset="{REAL}" http-equiv="Content-Type" content="text/html; charset={DECOY}">',
    ),
    (
        "he-before-charset-attr",
        f'<meta http-equiv="Content-Type" content="text/html; charset={DECOY}" charset="{REAL}">',
    ),
    (
        "dup-content",
        f'<meta http-equiv="Content-Type" content="text/html; charset={REAL}"'
        f' content="text/html; charset={DECOY}">',
    ),
    (
        "dup-http-equiv",
        f'<meta http-equiv="refresh" http-equiv="Content-Type"'
        f' content="text/html; charset={REAL}">',
    ),
    ("charset-in-other-attr", f'<meta name="x" content="y" title="charset={REAL}">'),
    ("meta-in-attr-of-other-tag", f'<link title="<meta charset={REAL}>">'),
    ("meta-in-unquoted-attr", f"<link title=<meta charset={REAL}>>"),
    ("meta-in-comment", f"<!-- <meta charset={REAL}> -->"),
    ("meta-in-short-comment", f"<!--><meta charset={REAL}>"),
    ("meta-in-three-dash-comment", f"<!---><meta charset={REAL}>-->"),
    ("meta-in-bogus-comment", f"<!x <meta charset={REAL}> >"),
    ("meta-in-pi", f"<? <meta charset={REAL}> ?>"),
    ("meta-in-script", f"<script>var s = '<meta charset={REAL}>';</script>"),
    (
        "meta-in-script-string-dq",
        f'<script>document.title = "<meta charset=\\"{REAL}\\">";</script>',
    ),
    ("meta-in-style", f"<style>/* <meta charset={REAL}> */</style>"),
    ("meta-in-title", f"<title><meta charset={REAL}></title>"),
    ("meta-in-textarea", f"<textarea><meta charset={REAL}></textarea>"),
    ("meta-in-noscript", f"<noscript><meta charset={REAL}></noscript>"),
    ("meta-after-endtag-like", f"</x charset={DECOY}><meta charset={REAL}>"),
    ("meta-in-endtag-attr", f"</p charset={REAL}>"),
    ("metax-tag", f'<metax charset="{REAL}">'),
    ("meta-no-space", f'<metacharset="{REAL}">'),
]


def meta_forms() -> Iterator[Doc]:
    """<meta> syntax variants; French body (windows-1252/1254 identical), label windows-1254."""
    for name, head in META_FORMS:
        yield fr_doc(f"meta-{name}", "meta_forms", head, head)


OFFSETS = [1000, 1020, 1023, 1024, 1030, 2048, 5120, 51200]


def padding(kind: str, length: int) -> str:
    """``length`` bytes of ASCII filler of a given kind (exact for lengths >= 60)."""
    if kind == "comment":
        return "<!--" + "x" * (length - 7) + "-->"
    if kind == "meta-name":
        unit = '<meta name="keywords" content="a,b,c">'
        n, rest = divmod(length, len(unit))
        return unit * n + " " * rest
    if kind == "script":
        return "<script>var a='" + "x" * (length - 26) + "';</script>"
    if kind == "style":
        return "<style>p{}/*" + "x" * (length - 22) + "*/</style>"
    if kind == "spaces":
        return " " * length
    if kind == "body-text":
        return "</head><body><p>" + "y" * (length - 20) + "</p>"
    if kind == "body-tag":
        return "</head><body>" + " " * (length - 13)
    raise ValueError(kind)


def late_meta() -> Iterator[Doc]:
    """<meta charset> whose '<' is at a chosen byte offset, after various fillers."""
    start = "<!DOCTYPE html><html><head>"
    meta = f'<meta charset="{REAL}">'
    for kind in ("comment", "meta-name", "script", "style", "spaces", "body-text", "body-tag"):
        for offset in OFFSETS:
            head = padding(kind, offset - len(start))
            html = start + head + meta
            assert html.index("<meta charset") == offset, (kind, offset)
            tail = "" if kind.startswith("body") else "</head><body>"
            html += f'{tail}<p id="m">{FR}</p></body></html>\n'
            yield Doc(
                f"late-{kind}-{offset}",
                "late_meta",
                f"meta charset={REAL} at byte {offset} after {kind} filler",
                html.encode("cp1252"),
                true_encoding="windows-1252",
                expected_marker=FR,
            )
    # Same in a Russian windows-1251 page: does detection or the late meta decide?
    ru = SAMPLES["ru"]
    for offset in (500, 1030, 5120):
        for kind in ("comment", "body-text"):
            head = padding(kind, offset - len(start))
            html = start + head + '<meta charset="koi8-r">'
            tail = "" if kind.startswith("body") else "</head><body>"
            html += f'{tail}<p id="m">{ru}</p></body></html>\n'
            yield Doc(
                f"late-ru-{kind}-{offset}",
                "late_meta",
                f"meta charset=koi8-r at byte {offset} after {kind}, body windows-1251",
                html.encode("cp1251"),
                true_encoding="windows-1251",
                expected_marker=ru,
            )
    # Non-ASCII text before the late meta.
    for offset in (1030, 5120):
        pre = "<!DOCTYPE html><html><head><title>" + FR[:60] + "</title>"
        html = pre + padding("comment", offset - len(pre.encode("cp1252"))) + meta
        html += f'</head><body><p id="m">{FR}</p></body></html>\n'
        yield Doc(
            f"late-nonascii-title-{offset}",
            "late_meta",
            f"non-ASCII title, then meta charset={REAL} at byte {offset}",
            html.encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )
    # Meta in body before byte 1024.
    yield fr_doc(
        "meta-in-body-early",
        "late_meta",
        "meta charset in body at ~200 bytes",
        "",
        before_marker=f"<p>hello</p><meta charset={REAL}>",
    )


def xml_declaration() -> Iterator[Doc]:
    ru = SAMPLES["ru"]
    xml = '<?xml version="1.0" encoding="windows-1251"?>\n'
    yield Doc(
        "xml-1251-undeclared",
        "xml_declaration",
        "XML declaration windows-1251, no header charset",
        (xml + page("", ru)).encode("cp1251"),
        true_encoding="windows-1251",
        expected_marker=ru,
    )
    yield Doc(
        "xml-1251-header-koi8",
        "xml_declaration",
        "XML declaration windows-1251, header koi8-r",
        (xml + page("", ru)).encode("cp1251"),
        ct("text/html; charset=koi8-r"),
        true_encoding="windows-1251",
        expected_marker=ru,
    )
    xml_fr = f'<?xml version="1.0" encoding="{REAL}"?>\n'
    yield fr_doc(
        "xml-fr-undeclared",
        "xml_declaration",
        f"XML declaration {REAL} on French page",
        "",
        headers=ct("text/html"),
    )
    doc = fr_doc("xml-fr-real", "xml_declaration", f"XML declaration {REAL}, no meta", "")
    doc.body = xml_fr.encode() + doc.body
    yield doc
    doc = fr_doc(
        "xml-fr-real-meta-decoy",
        "xml_declaration",
        f"XML declaration {REAL}, meta {DECOY}",
        f'<meta charset="{DECOY}">',
    )
    doc.body = xml_fr.encode() + doc.body
    yield doc
    for label in ("utf-16", "UTF-16LE", "iso-2022-kr"):
        doc = fr_doc(
            f"xml-fr-{label}", "xml_declaration", f"XML declaration {label} on French page", ""
        )
        doc.body = f'<?xml version="1.0" encoding="{label}"?>\n'.encode() + doc.body
        yield doc
    doc = fr_doc("xml-fr-sq", "xml_declaration", "XML declaration with single quotes", "")
    doc.body = f"<?xml version='1.0' encoding='{REAL}'?>\n".encode() + doc.body
    yield doc
    doc = fr_doc("xml-fr-after-space", "xml_declaration", "XML declaration after a space", "")
    doc.body = b" " + xml_fr.encode() + doc.body
    yield doc
    ja = SAMPLES["ja"]
    body = ('<?xml version="1.0" encoding="Shift_JIS"?>\n' + page("", ja)).encode("shift_jis")
    yield Doc(
        "xml-sjis-undeclared",
        "xml_declaration",
        "XML declaration Shift_JIS, Japanese body",
        body,
        true_encoding="Shift_JIS",
        expected_marker=ja,
    )


def special_labels() -> Iterator[Doc]:
    """UTF-16 and x-user-defined in meta; replacement and unknown labels in header and meta."""
    ru = SAMPLES["ru"]
    for label in ("utf-16", "utf-16le", "utf-16be", "unicodeFFFE"):
        for enc, codec, text in (("UTF-8", "utf-8", ru), ("windows-1252", "cp1252", FR)):
            yield Doc(
                f"meta-{label}-{enc}-body",
                "special_labels",
                f"meta {label} on a {enc} body",
                page(f'<meta charset="{label}">', text).encode(codec),
                true_encoding=enc,
                expected_marker=text,
            )
    yield Doc(
        "header-utf-16-ascii-body",
        "special_labels",
        "header utf-16 on an ASCII body",
        page("", SAMPLES["en"]).encode("ascii"),
        ct("text/html; charset=utf-16"),
        true_encoding="windows-1252",
        expected_marker=SAMPLES["en"],
    )
    body = page('<meta charset="x-user-defined">', FR).encode("cp1252")
    yield Doc(
        "meta-x-user-defined",
        "special_labels",
        "meta x-user-defined",
        body,
        true_encoding="windows-1252",
        expected_marker=FR,
    )
    yield Doc(
        "header-x-user-defined",
        "special_labels",
        "header x-user-defined",
        body,
        ct("text/html; charset=x-user-defined"),
        true_encoding="windows-1252",
        expected_marker=FR,
    )
    for label in ("iso-2022-kr", "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "replacement"):
        body = page("", FR).encode("cp1252")
        yield Doc(
            f"header-{label}",
            "special_labels",
            f"header charset {label}",
            body,
            ct(f"text/html; charset={label}"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )
        yield Doc(
            f"meta-{label}",
            "special_labels",
            f"meta charset {label}",
            page(f'<meta charset="{label}">', FR).encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )
    yield Doc(
        "header-iso-2022-kr-empty-body",
        "special_labels",
        "header iso-2022-kr, empty body",
        b"",
        ct("text/html; charset=iso-2022-kr"),
    )
    for label in ("utf-7", "utf-32", "foo", "x-sjis-unknown"):
        yield Doc(
            f"meta-unknown-{label}",
            "special_labels",
            f"meta charset {label} (unsupported)",
            page(f'<meta charset="{label}">', FR).encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )
        yield Doc(
            f"header-unknown-{label}",
            "special_labels",
            f"header charset {label}",
            page("", FR).encode("cp1252"),
            ct(f"text/html; charset={label}"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )


HEADER_FORMS: list[tuple[str, list[tuple[str, str]]]] = [
    ("dq", ct(f'text/html; charset="{REAL}"')),
    ("sq", ct(f"text/html; charset='{REAL}'")),
    ("nospace", ct(f"text/html;charset={REAL}")),
    ("upper", ct(f"TEXT/HTML; CHARSET={REAL.upper()}")),
    ("spaces-around-eq", ct(f"text/html; charset = {REAL}")),
    ("trailing-param", ct(f"text/html; charset={REAL}; foo=bar")),
    ("leading-param", ct(f"text/html; foo=bar; charset={REAL}")),
    ("two-charsets", ct(f"text/html; charset={REAL}; charset={DECOY}")),
    ("empty", ct("text/html;charset=")),
    ("empty-dq", ct('text/html; charset=""')),
    ("bare-charset", ct("text/html; charset")),
    ("padded-dq", ct(f'text/html; charset=" {REAL}"')),
    ("trailing-space", ct(f"text/html; charset={REAL} ")),
    ("no-type", ct(f"charset={REAL}")),
    ("garbage-type", ct(f"foo; charset={REAL}")),
    ("bad-type-slash", ct(f"text/; charset={REAL}")),
    ("star-type", ct(f"*/*; charset={REAL}")),
    ("comma-list-star", ct(f"text/html; charset={REAL}, */*")),
    ("comma-list-star-meta", ct(f"text/html; charset={REAL}, */*")),
    ("comma-list-star-first-meta", ct(f"*/*, text/html; charset={REAL}")),
    ("comma-list-star-param-meta", ct(f"text/html; charset={REAL}, */*; q=0.8")),
    ("comma-list-star-charset", ct(f"text/html; charset={DECOY}, */*; charset={REAL}")),
    (
        "two-headers-star-meta",
        [("Content-Type", f"text/html; charset={REAL}"), ("Content-Type", "*/*")],
    ),
    ("comma-list-second", ct(f"text/html, text/html; charset={REAL}")),
    ("comma-list-first", ct(f"text/html; charset={REAL}, text/html")),
    ("comma-list-two", ct(f"text/html; charset={REAL}, text/html; charset={DECOY}")),
    (
        "two-headers",
        [
            ("Content-Type", f"text/html; charset={REAL}"),
            ("Content-Type", f"text/html; charset={DECOY}"),
        ],
    ),
    (
        "two-headers-second-only",
        [("Content-Type", "text/html"), ("Content-Type", f"text/html; charset={REAL}")],
    ),
    (
        "two-headers-first-only",
        [("Content-Type", f"text/html; charset={REAL}"), ("Content-Type", "text/html")],
    ),
    (
        "two-headers-second-plain",
        [("Content-Type", f"text/html; charset={REAL}"), ("Content-Type", "text/plain")],
    ),
    ("none", []),
    ("none-meta", []),
    ("xhtml-type", ct(f"application/xhtml+xml; charset={REAL}")),
    ("charset-quoted-escape", ct(f'text/html; charset="{REAL}\\"x"')),
    ("label-latin5", ct("text/html; charset=latin5")),
]


def header_forms() -> Iterator[Doc]:
    for name, headers in HEADER_FORMS:
        head = f'<meta charset="{DECOY}">' if name.endswith("-meta") else ""
        yield fr_doc(f"header-{name}", "header_forms", repr(headers), head, headers=headers)


def undeclared_families() -> Iterator[Doc]:
    for enc, lang, codec in FAMILIES:
        text = sample_text(lang, codec)
        long_text = long_form(text, 5000, codec)
        for size, marker in (("short", text), ("long", long_text)):
            body = page("", marker).encode(codec)
            yield Doc(
                f"undeclared-{enc}-{lang}-{size}",
                "undeclared",
                f"undeclared {lang} in {enc}, {size} ({len(body)} bytes)",
                body,
                true_encoding=enc,
                expected_marker=marker,
            )
        yield Doc(
            f"declared-{enc}-{lang}",
            "declared",
            f"{lang} in {enc}, declared in header",
            page("", text).encode(codec),
            ct(f"text/html; charset={enc}"),
            true_encoding=enc,
            expected_marker=text,
        )


def undeclared_ascii_utf8() -> Iterator[Doc]:
    en = SAMPLES["en"]
    for size, marker in (("short", en), ("long", long_form(en, 5000, "ascii"))):
        yield Doc(
            f"undeclared-ascii-{size}",
            "undeclared_utf8",
            f"undeclared ASCII, {size}",
            page("", marker).encode("ascii"),
            true_encoding="windows-1252",
            expected_marker=marker,
        )
    for lang in ("ru", "ja", "fr", "zh-hans", "el"):
        text = SAMPLES[lang]
        for size, marker in (("short", text), ("long", long_form(text, 5000, "utf-8"))):
            yield Doc(
                f"undeclared-utf8-{lang}-{size}",
                "undeclared_utf8",
                f"undeclared UTF-8 {lang}, {size}",
                page("", marker).encode("utf-8"),
                true_encoding="UTF-8",
                expected_marker=marker,
            )
    # ASCII prefix, then the first non-ASCII byte at a chosen offset.
    for offset in (300, 1100, 3000, 10000, 70000):
        filler = en + " "
        start = '<!DOCTYPE html><html><head><title>t</title></head><body><p id="m">'
        prefix_len = offset - len(start)
        marker = (filler * (prefix_len // len(filler) + 1))[:prefix_len] + SAMPLES["ru"]
        html = start + marker + "</p></body></html>\n"
        assert html.encode("utf-8")[offset] >= 0x80
        yield Doc(
            f"undeclared-utf8-at-{offset}",
            "undeclared_utf8",
            f"undeclared UTF-8, first non-ASCII byte at {offset}",
            html.encode("utf-8"),
            true_encoding="UTF-8",
            expected_marker=marker,
        )
        html_fr = start + marker.replace(SAMPLES["ru"], FR) + "</p></body></html>\n"
        yield Doc(
            f"undeclared-1252-at-{offset}",
            "undeclared",
            f"undeclared windows-1252, first non-ASCII byte at {offset}",
            html_fr.encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=marker.replace(SAMPLES["ru"], FR),
        )


TLDS = [
    "com", "org", "jp", "ru", "ua", "kr", "cn", "tw", "de", "pl", "cz", "gr", "il", "eg", "th",
    "tr", "vn", "lt", "example",
]  # fmt: skip


def tld_effect() -> Iterator[Doc]:
    en = SAMPLES["en"]
    pages = [
        ("ascii", page("", en).encode("ascii"), "windows-1252", en),
        ("fr-1252", page("", FR).encode("cp1252"), "windows-1252", FR),
        ("ja-sjis", page("", SAMPLES["ja"]).encode("shift_jis"), "Shift_JIS", SAMPLES["ja"]),
        ("ru-1251", page("", SAMPLES["ru"]).encode("cp1251"), "windows-1251", SAMPLES["ru"]),
        ("ru-utf8", page("", SAMPLES["ru"]).encode("utf-8"), "UTF-8", SAMPLES["ru"]),
        (
            "few-high-bytes",
            page("", "Price: 10\xa0EUR \xb7 caf\xe9").encode("cp1252"),
            "windows-1252",
            "Price: 10\xa0EUR \xb7 caf\xe9",
        ),
    ]
    for tld in TLDS:
        host = f"example.{tld}" if tld != "example" else "test.example"
        for name, body, enc, marker in pages:
            yield Doc(
                f"tld-{tld}-{name}",
                "tld",
                f"undeclared {name} page from {host}",
                body,
                host=host,
                true_encoding=enc,
                expected_marker=marker,
            )


# UTF-8 pages with a few invalid bytes after the marker: a Latin-1 byte pasted in, a character
# cut in two, a byte no encoding has. (The project reads them as UTF-8, U+FFFD for each.)
STRAY_BYTES = {"latin1": b" caf\xe9 ", "cut": b" \xe2\x80 ", "ff": b" \xff "}
NEARLY_UTF8_HOSTS = {"fr": "www.example.fr", "ru": "www.example.ru", "ja": "www.example.jp",
                     "zh-hans": "www.example.cn"}  # fmt: skip


def nearly_utf8() -> Iterator[Doc]:
    for lang, tld_host in NEARLY_UTF8_HOSTS.items():
        text = SAMPLES[lang]
        for size, marker in (("short", text), ("long", long_form(text, 5000, "utf-8"))):
            for stray, raw in STRAY_BYTES.items():
                for host, where in (("127.0.0.1", "ip"), (tld_host, "tld")):
                    body = page("", marker, after="<p>x</p>").encode("utf-8")
                    body = body.replace(b"<p>x</p>", b"<p>" + raw + b"</p>")
                    yield Doc(
                        f"nearly-utf8-{lang}-{size}-{stray}-{where}",
                        "nearly_utf8",
                        f"UTF-8 {lang}, {size}, one invalid sequence ({stray}), from {host}",
                        body,
                        host=host,
                        true_encoding="UTF-8",
                        expected_marker=marker,
                    )


HEAD_ENDERS: list[tuple[str, str]] = [
    ("head-end-tag", "</head>"),
    ("div-tag", "<div>"),
    ("head-text", "x"),
    ("img-tag", '<img src="data:,">'),
    ("p-tag", "<p>"),
    ("span-tag", "<span>"),
    ("unknown-tag", "<foo>"),
    ("svg-tag", "<svg></svg>"),
    ("link-tag", '<link rel="x" href="y">'),
    ("base-tag", '<base href="http://127.0.0.1/">'),
    ("noscript-block", "<noscript><p>x</p></noscript>"),
    ("template-block", "<template><p>x</p></template>"),
    ("body-end-tag", "</body>"),
    ("html-end-tag", "</html>"),
    ("nbsp-entity", "&nbsp;"),
]


def head_end() -> Iterator[Doc]:
    """Which markup ends Chromium's <head> for the late-meta scan: meta at byte 2048 after it."""
    start = "<!DOCTYPE html><html><head>"
    meta = f'<meta charset="{REAL}">'
    for name, ender in HEAD_ENDERS:
        html = start + ender
        html += padding("comment", 2048 - len(html)) + meta
        assert html.index("<meta charset") == 2048
        html += f'<p id="m">{FR}</p></body></html>\n'
        yield Doc(
            f"head-end-{name}",
            "head_end",
            f"{ender!r} before a meta at byte 2048",
            html.encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )


def end_of_input() -> Iterator[Doc]:
    """A declared document whose last bytes are an incomplete sequence."""

    cases = [
        ("UTF-8", "utf-8", b"\xe3\x81"),
        ("UTF-8", "utf-8", b"\xf0\x9f\x98"),
        ("Shift_JIS", "shift_jis", b"\x82"),
        ("EUC-JP", "euc_jp", b"\x8f\xa1"),
        ("gb18030", "gb18030", b"\x81\x30"),
        ("gb18030", "gb18030", b"\x81\x30\x81"),
        ("Big5", "big5", b"\xa4"),
        ("EUC-KR", "euc_kr", b"\xb0"),
        ("ISO-2022-JP", "iso2022_jp", b"\x1b$"),
        ("UTF-16LE", "utf-16-le", b"A"),
        ("UTF-16LE", "utf-16-le", b"\x3d\xd8"),
        ("UTF-16BE", "utf-16-be", b"\xd8\x3d"),
    ]
    langs = {"Big5": "zh-hant", "gb18030": "zh-hans", "EUC-KR": "ko"}
    for enc, codec, tail in cases:
        text = SAMPLES[langs.get(enc, "ja")]
        body = page("", text).encode(codec) + tail
        yield Doc(
            f"eof-{enc}-{tail.hex()}",
            "end_of_input",
            f"{enc} body ending in {tail.hex()}",
            body,
            ct(f"text/html; charset={enc}"),
            true_encoding=enc,
            expected_marker=text,
        )
        if enc == "UTF-8":
            yield Doc(
                f"eof-{enc}-{tail.hex()}-undeclared",
                "end_of_input",
                f"undeclared UTF-8 body ending in {tail.hex()}",
                body,
                true_encoding=enc,
                expected_marker=text,
            )


def late_legacy_text() -> Iterator[Doc]:
    """Undeclared pages whose first non-ASCII bytes come late: what does detection see?"""
    en = SAMPLES["en"] + " "
    for lang, enc, codec in (
        ("ja", "Shift_JIS", "shift_jis"),
        ("ru", "windows-1251", "cp1251"),
        ("zh-hans", "GBK", "gbk"),
    ):
        for offset in (3000, 20000, 70000):
            start = '<!DOCTYPE html><html><head><title>t</title></head><body><p id="m">'
            prefix = (en * (offset // len(en) + 1))[: offset - len(start)]
            marker = prefix + SAMPLES[lang]
            body = (start + marker + "</p></body></html>\n").encode(codec)
            yield Doc(
                f"late-text-{enc}-{offset}",
                "undeclared",
                f"undeclared {enc}, first non-ASCII byte at {offset}",
                body,
                true_encoding=enc,
                expected_marker=marker,
            )


def late_switch() -> Iterator[Doc]:
    """Text before a late meta whose bytes differ between windows-1252 and windows-1254:
    is it decoded with the meta's encoding too?"""
    turkish = b"\xde\xf0\xfd \xd0\xdd\xfe"  # windows-1254 "ŞğıĞİş", windows-1252 "Þðý ÐÝþ"
    meta = f'<meta charset="{REAL}">'.encode()
    for offset in (600, 1030, 5120):
        start = b"<!DOCTYPE html><html><head><title>" + turkish + b"</title>"
        pad = padding("comment", offset - len(start)).encode()
        body = start + pad + meta + b'</head><body><p id="m">' + turkish + b"</p></body></html>\n"
        yield Doc(
            f"late-switch-title-{offset}",
            "late_switch",
            f"windows-1254 title bytes, then meta {REAL} in head at byte {offset}",
            body,
            true_encoding="windows-1254",
            expected_marker="Şğı Ğİş",
        )
    for offset in (600, 1000):
        start = b'<!DOCTYPE html><html><head></head><body><p id="m">' + turkish + b"</p>"
        pad = padding("spaces", offset - len(start)).encode()
        body = start + pad + meta + b"</body></html>\n"
        yield Doc(
            f"late-switch-body-{offset}",
            "late_switch",
            f"windows-1254 body text, then meta {REAL} in body at byte {offset}",
            body,
            true_encoding="windows-1254",
            expected_marker="Şğı Ğİş",
        )


def extra_declarations() -> Iterator[Doc]:
    """XML declaration variants, BOM-less UTF-16 XML declarations, meta order with late metas."""
    real = f'<meta charset="{REAL}">'
    xml_variants = [
        ("upper", f'<?XML version="1.0" encoding="{REAL}"?>'),
        ("spaces-eq", f'<?xml version="1.0" encoding = "{REAL}"?>'),
        ("unquoted", f"<?xml version=1.0 encoding={REAL}?>"),
        ("no-version", f'<?xml encoding="{REAL}"?>'),
        ("long-1100", '<?xml version="1.0"' + " " * 1100 + f'encoding="{REAL}"?>'),
        ("long-300", '<?xml version="1.0"' + " " * 300 + f'encoding="{REAL}"?>'),
        ("after-comment", f'<!-- c --><?xml version="1.0" encoding="{REAL}"?>'),
        ("unknown-label", '<?xml version="1.0" encoding="utf-7"?>'),
        ("x-user-defined", '<?xml version="1.0" encoding="x-user-defined"?>'),
    ]
    for name, xml in xml_variants:
        doc = fr_doc(f"xml-{name}", "extra", f"XML declaration variant: {xml[:60]!r}", "")
        doc.body = xml.encode() + b"\n" + doc.body
        yield doc
    doc = fr_doc("xml-after-utf8-bom", "extra", "UTF-8 BOM then XML declaration windows-1254", "")
    doc.body = b"\xef\xbb\xbf" + f'<?xml version="1.0" encoding="{REAL}"?>'.encode() + doc.body
    doc.true_encoding = "UTF-8"
    yield doc
    ru = SAMPLES["ru"]
    for enc, codec in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
        for label in ("utf-16", "windows-1251"):
            html = f'<?xml version="1.0" encoding="{label}"?>' + page("", ru)
            yield Doc(
                f"xml-{enc}-nobom-{label}",
                "extra",
                f"{enc} body without BOM starting with <?xml encoding={label}",
                html.encode(codec),
                true_encoding=enc,
                expected_marker=ru,
            )
    ru_doc = page('<meta charset="utf-7">', ru).encode("cp1251")
    yield Doc(
        "meta-unknown-ru-1251",
        "extra",
        "meta utf-7 on a windows-1251 Russian page",
        ru_doc,
        true_encoding="windows-1251",
        expected_marker=ru,
    )
    start = "<!DOCTYPE html><html><head>"
    for name, first in (
        ("unknown", '<meta charset="foo">'),
        ("decoy", f'<meta charset="{DECOY}">'),
        ("refresh", '<meta http-equiv="refresh" content="30">'),
    ):
        html = start + first
        html += padding("comment", 2048 - len(html)) + real
        html += f'</head><body><p id="m">{FR}</p></body></html>\n'
        yield Doc(
            f"late-after-{name}-meta",
            "extra",
            f"{first} early, {real} at byte 2048 in head",
            html.encode("cp1252"),
            true_encoding="windows-1252",
            expected_marker=FR,
        )
    html = start + padding("comment", 2048 - len(start)) + real
    html += padding("comment", 1000) + f'<meta charset="{DECOY}">'
    html += f'</head><body><p id="m">{FR}</p></body></html>\n'
    yield Doc(
        "late-two-metas",
        "extra",
        f"{real} at 2048 then {DECOY} at ~3050, both in head",
        html.encode("cp1252"),
        true_encoding="windows-1252",
        expected_marker=FR,
    )
    html = start + padding("comment", 2048 - len(start)) + '<meta charset="utf-16">'
    html += f'</head><body><p id="m">{FR}</p></body></html>\n'
    yield Doc(
        "late-utf16-meta",
        "extra",
        "meta utf-16 at byte 2048 in head, windows-1252 body",
        html.encode("cp1252"),
        true_encoding="windows-1252",
        expected_marker=FR,
    )
    html = start + padding("comment", 2048 - len(start)) + '<meta charset="iso-2022-kr">'
    html += f'</head><body><p id="m">{FR}</p></body></html>\n'
    yield Doc(
        "late-replacement-meta",
        "extra",
        "meta iso-2022-kr at byte 2048 in head",
        html.encode("cp1252"),
        true_encoding="windows-1252",
        expected_marker=FR,
    )


# Labels no browser knows, each on text really in that encoding: the page is undeclared for
# the browser, so its detector decides. (label, language, Python codec, text); the true
# encoding is the Encoding Standard's encoding for the codec, where it has one.
TRUE_ENCODINGS = {
    "iso8859_15": "ISO-8859-15", "mac_roman": "macintosh", "iso8859_9": "windows-1254",
    "iso8859_16": "ISO-8859-16",
}  # fmt: skip
UNKNOWN_LABELS: list[tuple[str, str, str, str]] = [
    ("latin9", "fr", "iso8859_15", "Le bœuf coûte 12 € le kilo ; un vœu pour l'été, dit sa sœur."),
    ("latin9", "de", "iso8859_15", SAMPLES["de"]),
    ("mac-roman", "fr", "mac_roman", SAMPLES["fr"]),
    ("cp1125", "uk", "cp1125", SAMPLES["uk"]),
    ("koi8-t", "tg", "koi8_t", "Китобхонаи шаҳр рӯзи шанбе ҳам кушода аст. Кӯдакон метавонанд "
     "китоб хонанд ва бозӣ кунанд, калонсолон қаҳва менӯшанд ва рӯзнома мехонанд."),
    ("johab", "ko", "johab", SAMPLES["ko"]),
    ("cp852", "cs", "cp852", SAMPLES["cs"]),
    ("cp850", "fr", "cp850", SAMPLES["fr"]),
    ("iso-8859-9", "tr", "iso8859_9", SAMPLES["tr"]),
    ("iso-8859-16", "ro", "iso8859_16", "Știința și țara noastră sunt frumoase, în sfârșit."),
]


def unknown_labels() -> Iterator[Doc]:
    for label, lang, codec, text in UNKNOWN_LABELS:
        long_text = long_form(text, 5000, codec)
        for size, marker in (("short", text), ("long", long_text)):
            body = page(f'<meta charset="{label}">', marker).encode(codec)
            yield Doc(
                f"unknown-label-{label}-{lang}-{size}",
                "unknown_labels",
                f"{lang} in {codec} labelled {label}, {size} ({len(body)} bytes)",
                body,
                true_encoding=TRUE_ENCODINGS.get(codec),
                expected_marker=marker,
            )
            # The same text without the label: does the label itself change anything?
            body = page("", marker).encode(codec)
            yield Doc(
                f"unknown-label-{label}-{lang}-{size}-unlabelled",
                "unknown_labels",
                f"{lang} in {codec} without a label, {size} ({len(body)} bytes)",
                body,
                true_encoding=TRUE_ENCODINGS.get(codec),
                expected_marker=marker,
            )


# Media types a browser parses as XML (MIME Sniffing's "XML MIME type"), and HTML for contrast.
XML_TYPES = [
    "application/xhtml+xml",
    "text/xml",
    "application/xml",
    "image/svg+xml",
    "application/rss+xml",
    "text/html",
]


def xml_types() -> Iterator[Doc]:
    """The same French page served as XML types: undeclared, with a <meta> only, with an XML
    declaration only (the bytes are valid windows-1252, not UTF-8)."""
    xml_fr = f'<?xml version="1.0" encoding="{REAL}"?>\n'
    for mime in XML_TYPES:
        name = mime.replace("/", "-").replace("+", "-")
        headers = ct(mime)
        yield fr_doc(f"type-{name}-undeclared", "xml_types", mime, "", headers=headers)
        yield fr_doc(
            f"type-{name}-meta", "xml_types", mime, f'<meta charset="{REAL}"/>', headers=headers
        )
        doc = fr_doc(f"type-{name}-xmldecl", "xml_types", mime, "", headers=headers)
        doc.body = xml_fr.encode() + doc.body
        yield doc


# Latin-script windows-1252 text whose only non-ASCII bytes are the quotes 0x91 0x92 (`‘` `’`)
# next to letters: apostrophes of elision and possession, and quoted words (macintosh reads
# them as the letters `ë` `í`).
LATIN_QUOTES = {
    "en": "It’s a nice day. Don’t worry, I’m fine, we’ll see. They’re here and you’re late.",
    "en-possessive": "The students’ books and the teachers’ notes were on the boys’ desks.",
    "en-quoted": "He said ‘fine’ and ‘ok’ and then ‘goodbye’ to all of them.",
    "fr": "L’homme qu’il a vu n’est pas venu. C’est l’heure, aujourd’hui, d’aller au lit.",
    "it": "L’anno scorso l’abbiamo visto all’inizio dell’estate, quand’era caldo.",
    "ca": "L’estiu passat vam anar a la platja d’Empuries. L’aigua era freda i l’home va dir que s’ha acabat.",
    "nl": "Hij kwam ’s morgens vroeg en ’s avonds laat. Het is ’t beste zo, zei hij.",
    "af": "Dit is ’n mooi dag. Ons het ’n groot huis en ’n klein tuin. Dit is ’n goeie plan.",
}


def windows_1252_texts(
    group: str, prefix: str, texts: dict[str, str], times: int, what: str
) -> Iterator[Doc]:
    """Each of ``texts`` as an undeclared windows-1252 page, as it is ("short") and ``times``
    over ("long")."""
    for name, text in texts.items():
        for size, marker in (("short", text), ("long", " ".join([text] * times))):
            body = page("", marker).encode("cp1252")
            yield Doc(
                f"{prefix}-{name}-{size}",
                group,
                f"undeclared {name} in windows-1252, {what}, {size} ({len(body)} bytes)",
                body,
                true_encoding="windows-1252",
                expected_marker=marker,
            )


def latin_quotes() -> Iterator[Doc]:
    return windows_1252_texts("latin_quotes", "quotes", LATIN_QUOTES, 5, "quotes only")


# English windows-1252 text whose only non-ASCII bytes are signs of running text that other
# encodings read as letters: macintosh `ì î` for `“ ”`, `ó` for an em dash between words,
# ISO-8859-15 `Œ œ Ÿ` for `¼ ½ ¾`, ISO-8859-2 `ľ` for `µ`, ISO-8859-16 `Ș` for `™`; and English
# around foreign words whose letters are letters (`café`, Irish `Tá`).
ENGLISH_SIGNS = {
    "double-quotes": "He said “yes” and she said “no”, then “maybe” and “later” to all of them.",
    "em-dash": "It was—as we knew—late; the plan—if any—failed, and we left—quickly—for home.",
    "fractions": "Add ½ cup of flour, ¼ cup of sugar and ¾ cup of milk, then ½ tsp of salt.",
    "trademarks": "The Acme™ Widget® and the Gizmo™ Pro® are sold with the Super™ Kit®.",
    "micro": "The filter stops 5µm grains; the dose is 20µg and the delay is 3µs at most.",
    "cafe": "We met at the café near the station, and the café was full of people that day.",
    "irish": "Welcome to our site. Tá an aimsir fuar. Welcome to our site and our shop.",
}


def english_signs() -> Iterator[Doc]:
    return windows_1252_texts("english_signs", "english", ENGLISH_SIGNS, 4, "English, signs")


# Western windows-1252 text whose only non-ASCII bytes are a sign that other encodings read as
# a letter: `¢` (ISO-8859-16 `ą`), the ordinals `º ª` (windows-1250 `ş Ş`; Unicode files them
# as letters), `½` (ISO-8859-15 `œ`), superscripts (ISO-8859-10 `ī ģ`).
_WESTERN = {
    "en": "The report says that our team will meet with you and the board before the end of the year.",
    "de": "Wir haben das Haus gesehen und es ist gut, aber die Stadt ist nicht weit von hier entfernt.",
    "fr": "Nous avons vu la maison et elle est bonne, mais la ville est loin de la mer et du port.",
    "es": "Hemos visto la casa y es muy buena, pero la ciudad no esta cerca del mar ni del puerto.",
}
WESTERN_SIGNS = {
    "en-cent": _WESTERN["en"] + " 30 ¢",
    "de-cent": _WESTERN["de"] + " 30 ¢",
    "de-numero": _WESTERN["de"] + " Nº 5",
    "es-ordinal": _WESTERN["es"] + " 1ª vez",
    "fr-half": _WESTERN["fr"] + " ½ kg",
    "en-square": _WESTERN["en"] + " x² + y³",
}


def western_signs() -> Iterator[Doc]:
    return windows_1252_texts("western_signs", "sign", WESTERN_SIGNS, 5, "one kind of sign")


# Western windows-1252 text whose only non-ASCII bytes (or most) are guillemets around words,
# which ISO-8859-2 reads as `Ť ť`, ISO-8859-3 as `Ğ ğ`, ISO-8859-4 as `Ģ ģ`; and text whose
# letters other encodings read as rare letters of another language (windows-1250's Slovak
# `ĺ` for Swedish `å`, `ŕ` for Italian `à`).
GUILLEMETS = {
    "ca": "Feu clic a «Desa» per desar el document i a «Obre» per obrir-ne un altre de nou.",
    "fr": "Cliquez sur « Enregistrer » pour garder le fichier, puis sur « Ouvrir » pour lire.",
    "de": "Klicken Sie auf »Speichern«, um die Datei zu sichern, und dann auf »Öffnen«.",
    "es": "Pulse «Guardar» para conservar el archivo y luego «Abrir» para leerlo otra vez.",
    "it": "Fare clic su «Salva» per salvare il file e poi su «Apri» per aprirlo di nuovo.",
    "gl": "Prema «Gardar» para conservar o ficheiro e despois «Abrir» para lelo outra vez.",
}
RARE_LETTERS = {
    "sv": "Välj den färg som du vill ha från den yttre ringen, på den här sidan nu.",
    "sv-a": "Du kan gå till sidan och få hjälp med allt på en gång, så är det bra.",
    "it": "La conversione dal tipo al tipo esiste già per Šentjernej e per gli altri.",
    "it-a": "Il file è già stato salvato e la città è pronta per la prossima attività.",
    "af": "Die lêer kon nie gestoor word nie, want dit is nie op die skyf nie.",
    "oc": "Lo fichièr es pas estat enregistrat, e la pagina es pas mai disponibla.",
}


def guillemets() -> Iterator[Doc]:
    return windows_1252_texts("guillemets", "guillemets", GUILLEMETS, 4, "guillemets")


def rare_letters() -> Iterator[Doc]:
    return windows_1252_texts("rare_letters", "rare", RARE_LETTERS, 4, "letters rare elsewhere")


# Undeclared text whose words say their language clearly and whose only letters another
# language's encoding reads differently are a foreign name's (Icelandic `ð þ`, Estonian `õ`), or
# Finnish loanwords' `š ž` in ISO-8859-15; and Afrikaans `ê` and Occitan `è ò` with their words.
_GERMAN = (
    "Die Bibliothek ist von Montag bis Freitag geöffnet. Wir haben neue Bücher über die"
    " Geschichte der Stadt und viele Karten für die Reise."
)
_FRENCH = (
    "La bibliothèque est ouverte du lundi au vendredi. Nous avons des livres sur l'histoire de"
    " la ville et des cartes pour le voyage."
)
FOREIGN_NAMES: dict[str, tuple[str, str]] = {
    "de-thorshofn": (_GERMAN + " Ort: Þórshöfn.", "cp1252"),
    "de-strandabyggd": (_GERMAN + " Ort: Strandabyggð.", "cp1252"),
    "de-nordurthing": (_GERMAN + " Ort: Norðurþing.", "cp1252"),
    "fr-voro": (_FRENCH + " Lieu : Võro.", "cp1252"),
    "fr-nordurthing": (_FRENCH + " Lieu : Norðurþing.", "cp1252"),
    "fi-sakki": (
        "Pelaamme šakkia joka tiistai kirjastossa. Se on hauskaa, ja kaikki ovat"
        " tervetulleita, myös aloittelijat.",
        "iso8859_15",
    ),
    "fi-kambodza": (
        "Matka Kambodžaan kesti kaksi viikkoa, ja se oli hieno kokemus. Kuvat ovat nyt"
        " verkossa.",
        "iso8859_15",
    ),
    "af-leer": (
        "Die lêer is nie gevind nie. Kies asseblief 'n ander lêer en probeer weer.", "cp1252"
    ),
    "oc-dorsier": ("Lo dorsièr «fòtos» es void: lo rèire plan es pas trobat.", "cp1252"),
    # A Polish name among German words in windows-1250 (windows-1252 reads `Gdañsk`).
    "de-gdansk": (_GERMAN + " Ort: Gdańsk.", "cp1250"),
    "de-gdansk-3": (_GERMAN + " Gdańsk, Gdańsk und noch einmal Gdańsk.", "cp1250"),
    "de-poznan": (_GERMAN + " Ort: Poznań.", "cp1250"),
}
_WHATWG_OF = {"cp1252": "windows-1252", "iso8859_15": "ISO-8859-15", "cp1250": "windows-1250"}


def foreign_names() -> Iterator[Doc]:
    for name, (text, codec) in FOREIGN_NAMES.items():
        for size, marker in (("short", text), ("long", " ".join([text] * 3))):
            body = page("", marker).encode(codec)
            yield Doc(
                f"names-{name}-{size}",
                "foreign_names",
                f"undeclared {name} in {_WHATWG_OF[codec]}, words of one language and a name"
                f" or loanword, {size} ({len(body)} bytes)",
                body,
                true_encoding=_WHATWG_OF[codec],
                expected_marker=marker,
            )



# Documentation pages (Sphinx, MkDocs) end each heading with a permalink, `¶` (0xB6 in the
# windows-125x encodings, ISO-8859-2's `ś`, ISO-8859-3's `ĥ`, ISO-8859-4's `ļ`): undeclared
# windows-1252 pages whose only non-ASCII bytes, or nearly, are such marks, in the anchor's own
# text node or glued to the heading's last word.
PERMALINK_TEXTS = {
    "en": ("Applying to Become a Member", "So you have read the documentation and want to help."),
    "de": ("Installation", "Lesen Sie die Anleitung, bevor Sie beginnen."),
    "fr": ("Candidater pour devenir membre", "Vous avez lu toute la documentation du projet."),
    "it": ("Come aiutare la traduzione", "Scegliere ciò che si desidera tradurre."),
}
_PERMALINK_HOSTS = {"en": "www.example.com", "de": "www.example.de", "fr": "www.example.fr",
                    "it": "www.example.it"}  # fmt: skip


def permalinks() -> Iterator[Doc]:
    for language, (title, text) in PERMALINK_TEXTS.items():
        anchor = '<a class="headerlink" href="#s" title="Permalink">\u00b6</a>'
        forms = {
            "anchor": (f"<h2>{title}{anchor}</h2>", text),
            "glued": ("", f"{title}\u00b6 {text}"),
        }
        for form, (before, marker) in forms.items():
            body = page("", marker, before_marker=before).encode("cp1252")
            for host in ("127.0.0.1", _PERMALINK_HOSTS[language]):
                yield Doc(
                    f"permalink-{language}-{form}-{'ip' if host[0].isdigit() else 'tld'}",
                    "permalinks",
                    f"undeclared windows-1252 {language} page with a heading permalink"
                    f" (\u00b6, {form}) from {host} ({len(body)} bytes)",
                    body,
                    host=host,
                    true_encoding="windows-1252",
                    expected_marker=marker,
                )


GROUPS = {
    "xml_types": xml_types,
    "bom_header_meta": bom_header_meta,
    "meta_forms": meta_forms,
    "late_meta": late_meta,
    "xml_declaration": xml_declaration,
    "special_labels": special_labels,
    "header_forms": header_forms,
    "undeclared": undeclared_families,
    "undeclared_utf8": undeclared_ascii_utf8,
    "nearly_utf8": nearly_utf8,
    "tld": tld_effect,
    "head_end": head_end,
    "end_of_input": end_of_input,
    "late_legacy_text": late_legacy_text,
    "late_switch": late_switch,
    "extra": extra_declarations,
    "unknown_labels": unknown_labels,
    "latin_quotes": latin_quotes,
    "english_signs": english_signs,
    "western_signs": western_signs,
    "guillemets": guillemets,
    "rare_letters": rare_letters,
    "foreign_names": foreign_names,
    "permalinks": permalinks,
}


def all_docs(only: str | None = None) -> list[Doc]:
    docs = [d for name, make in GROUPS.items() if only in (None, name) for d in make()]
    ids = [d.id for d in docs]
    assert len(ids) == len(set(ids)), "duplicate document ids"
    for d in docs:
        assert d.expected_marker is None or not set("<&\r\0") & set(d.expected_marker), d.id
    return docs


# --- server ---------------------------------------------------------------------------------


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, docs: dict[str, Doc]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.docs = docs


class Handler(socketserver.StreamRequestHandler):
    """Answers ``GET /d/<id>`` with the document's exact headers and bytes, then closes."""

    server: Server

    def handle(self) -> None:
        request_line = self.rfile.readline().decode("latin-1")
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        parts = request_line.split()
        path = parts[1] if len(parts) > 1 else "/"
        doc = self.server.docs.get(path.removeprefix("/d/"))
        if doc is None:
            self.wfile.write(
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
            return
        head = "HTTP/1.1 200 OK\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in doc.headers)
        head += f"Content-Length: {len(doc.body)}\r\n"
        head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        self.wfile.write(head.encode("latin-1") + doc.body)
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_WR)


JS_RESULT = """() => {
  const m = document.getElementById('m');
  const root = document.documentElement;
  const t = root ? root.textContent : null;
  return {charset: document.characterSet, content_type: document.contentType,
          marker: m ? m.textContent : null, text: (t !== null && t.length <= 3000) ? t : null,
          title: document.title};
}"""


def record(docs: list[Doc]) -> list[dict[str, Any]]:
    server = Server({d.id: d for d in docs})
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    rows: list[dict[str, Any]] = []
    try:
        with chromium(EXTRA_ARGS) as browser:
            meta = describe(browser, browser.new_page())
            meta["flags"] = EXTRA_ARGS
            rows.append(meta)
            context = browser.new_context(locale="en-US")
            for doc in docs:
                page = context.new_page()
                url = f"http://{doc.host}:{port}/d/{doc.id}"
                try:
                    page.goto(url, wait_until="load", timeout=15000)
                    result = page.evaluate(JS_RESULT)
                except Exception as exc:  # recorded, e.g. a download instead of a document
                    result = {"error": str(exc).splitlines()[0]}
                page.close()
                rows.append(
                    {
                        "id": doc.id,
                        "group": doc.group,
                        "description": doc.description,
                        "url": url,
                        "headers": [list(h) for h in doc.headers],
                        "body_b64": base64.b64encode(doc.body).decode("ascii"),
                        "true_encoding": doc.true_encoding,
                        "expected_marker": doc.expected_marker,
                        "chromium": result,
                    }
                )
                print(doc.id, result.get("charset", result.get("error")), flush=True)
    finally:
        server.shutdown()
    return rows


def merge_group(new_rows: list[dict[str, Any]], group: str) -> list[dict[str, Any]]:
    """The existing fixture with ``group``'s documents replaced, in generation order. Where
    the browser is another version than the fixture's (its metadata row), each new row says
    which (``browser_version``)."""
    with gzip.open(OUT, "rt", encoding="utf-8") as f:
        old_rows = [json.loads(line) for line in f]
    by_id = {row["id"]: row for row in old_rows[1:] if row["group"] != group}
    version = new_rows[0]["version"]
    for row in new_rows[1:]:
        if version != old_rows[0]["version"]:
            row["browser_version"] = version
        by_id[row["id"]] = row
    order = [d.id for d in all_docs()]
    missing = set(order) - set(by_id)
    assert not missing, f"not recorded yet: {sorted(missing)[:5]}"
    return [old_rows[0]] + [by_id[doc_id] for doc_id in order]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(GROUPS), help="record one group (to stdout only)")
    parser.add_argument(
        "--update", action="store_true", help="with --only: replace that group in the fixture"
    )
    args = parser.parse_args(argv)
    rows = record(all_docs(args.only))
    if args.only and not args.update:
        return 0
    if args.only:
        rows = merge_group(rows, args.only)
    write_rows(rows, OUT)
    return 0


def write_rows(rows: list[dict[str, Any]], out: Path) -> None:
    """The metadata row and one row per document, gzipped JSON lines."""
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows) - 1} documents -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
