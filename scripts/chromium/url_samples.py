"""The characters and pages ``record_urls.py`` records Chromium's URLs and form data for.

For each encoding the samples are found systematically: every code point of the BMP (and a set
of astral ones) is encoded with the Encoding Standard's encoder (the plugin's) and with each
Python codec a Scrapy page could be given for that encoding (the plugin's former
``python_codec`` and the codec stock Scrapy resolves the label to); the characters where they
differ are grouped (both encode, differently / only Python encodes / only the standard does)
and up to ``PER_GROUP`` of each group, spread over the code point range, become samples. Then
characters the encoding lacks, and ASCII punctuation.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from scrapy.http import HtmlResponse

from scrapy_charset.encoding import ALL_ENCODINGS, encode, get_encoding, output_encoding
from scrapy_charset.encoding.encoders import encoder_table

ENCODINGS = [e.name for e in ALL_ENCODINGS if e.name != "replacement"]
PER_GROUP = 8
ASTRAL = [0x10000, 0x1F600, 0x20000, 0x2000B, 0x20087, 0x2A6A5, 0x10FFFF]
# Well-known troublemakers, always sampled where an encoder differs on them.
NOTABLE = (
    "\uff5e\u301c\u2212\uff0d\u00a5\u203e\u2016\u2225\u00a6\uffe4\uff71\u20ac\ue5e5\ue7c7"
    "\u2550\u5341\u00a2\u00ac"
)
LACKS_CANDIDATES = "é中～😀Ωß€\ufffdä한ア"
ASCII_SAMPLES = ["az AZ09", "!$'()*+,-./:;=?@_~", '"<>\\^`{|}[]', "%41%zz&x=1"]


@dataclass(frozen=True)
class Sample:
    id: str
    text: str
    kind: str  # "differs:<codec>", "python_only:<codec>", "spec_only:<codec>", "lacks", "ascii"


def stock_codec(name: str) -> str:
    """The codec stock Scrapy gives a page served with ``charset=<name>``."""
    headers = {"Content-Type": f"text/html; charset={name}"}
    return HtmlResponse("http://example.com/", body=b"<p>x", headers=headers).encoding


def _spec(char: str, name: str) -> bytes | None:
    try:
        return encode(char, output_encoding(name), "fatal")
    except UnicodeEncodeError:
        return None


def _python(char: str, codec: str) -> bytes | None:
    try:
        return char.encode(codec)
    except (UnicodeEncodeError, LookupError):
        return None


def _spread(values: list[int], count: int) -> list[int]:
    if len(values) <= count:
        return values
    step = len(values) / count
    return [values[int(i * step)] for i in range(count)]


@cache
def differences(name: str, codec: str) -> dict[str, list[int]]:
    """Code points where ``codec`` and the standard's encoder for ``name`` differ, by group."""
    groups: dict[str, list[int]] = {"differs": [], "python_only": [], "spec_only": []}
    for cp in [*range(0x80, 0xD800), *range(0xE000, 0x10000), *ASTRAL]:
        char = chr(cp)
        spec, python = _spec(char, name), _python(char, codec)
        if spec == python:
            continue
        if spec is None:
            groups["python_only"].append(cp)
        elif python is None:
            groups["spec_only"].append(cp)
        else:
            groups["differs"].append(cp)
    return groups


def samples(name: str) -> list[Sample]:
    enc = get_encoding(name)
    codecs = sorted({enc.python_codec, stock_codec(name)})
    chosen: dict[str, str] = {}
    for codec in codecs:
        for group, cps in differences(name, codec).items():
            notable = [cp for cp in map(ord, NOTABLE) if cp in cps]
            for cp in notable + _spread(cps, PER_GROUP):
                chosen.setdefault(chr(cp), f"{group}:{codec}")
    for char in _has(name):
        chosen.setdefault(char, "has")
    lacking = [c for c in LACKS_CANDIDATES if _spec(c, name) is None][:4]
    for char in lacking:
        chosen.setdefault(char, "lacks")
    out = [Sample(f"{i}", text, kind) for i, (text, kind) in enumerate(chosen.items())]
    start = len(out)
    out += [Sample(f"{start + i}", text, "ascii") for i, text in enumerate(ASCII_SAMPLES)]
    # A run of characters: the encoder's state (ISO-2022-JP) across neighbours.
    if chosen:
        run = "".join(list(chosen)[:6]) + "a\u00a5b"
        out.append(Sample(f"{len(out)}", run, "run"))
    return out


def _has(name: str) -> str:
    """A few characters the encoding has, spread over its code points."""
    output = output_encoding(name)
    if output.name == "UTF-8":
        return "é中😀\ufffd"
    table = encoder_table(output.name)
    return "".join(map(chr, _spread([cp for cp in range(0x80, 0x10000) if table[cp]], 4)))


def _ncr(text: str) -> str:
    return "".join(c if c.isascii() and c.isalnum() else f"&#{ord(c)};" for c in text)


def _raw(text: str) -> str:
    return "".join(c if not c.isascii() else (c if c.isalnum() else f"&#{ord(c)};") for c in text)


def page_document(name: str, items: list[Sample]) -> tuple[list[tuple[str, str]], bytes]:
    """The page: one link per sample (``n<i>`` character references, ``r<i>`` raw bytes where
    the encoding has them), and GET, POST and multipart forms with one field per sample."""
    links: list[str] = []
    fields: list[str] = []
    for sample in items:
        variants = [("n", _ncr(sample.text))]
        if _encodable(sample.text, name):
            variants.append(("r", _raw(sample.text)))
        for prefix, text in variants:
            link_id = f"{prefix}{sample.id}"
            links.append(f'<a id="{link_id}" href="/p/{text}?q={text}#{text}">{link_id}</a>')
            fields.append(f'<input name="{prefix}{sample.id}" value="{text}">')
    fields.append("<textarea name=t>a\r\nb\nc</textarea>")
    inputs = "\n".join(fields)
    document = (
        f"<!DOCTYPE html><html><head><title>{html.escape(name)}</title></head><body>\n"
        + "\n".join(links)
        + f'\n<form id="get" action="/get" method="get">{inputs}</form>'
        + f'\n<form id="post" action="/post" method="post">{inputs}</form>'
        + '\n<form id="multi" action="/multi" method="post" enctype="multipart/form-data">'
        + f"{inputs}</form>\n</body></html>"
    )
    headers = [("Content-Type", f"text/html; charset={name}")]
    if name == "UTF-16LE":
        return headers, b"\xff\xfe" + document.encode("utf-16-le")
    if name == "UTF-16BE":
        return headers, b"\xfe\xff" + document.encode("utf-16-be")
    return headers, encode(document, name, "fatal")


def _encodable(text: str, name: str) -> bool:
    if name in ("UTF-8", "UTF-16LE", "UTF-16BE"):
        return True
    try:
        encode(text, name, "fatal")
    except UnicodeEncodeError:
        return False
    return True
