"""Record Chromium's ``TextDecoder`` output for designed byte sequences in all 40 encodings.

Writes ``tests/data/chromium/textdecoder/<encoding name>.jsonl.gz`` (first line: metadata; then
one ``[input hex, ignoreBOM, output]`` array per line) and ``labels.json`` (what
``new TextDecoder(label).encoding`` says for every WHATWG label and some invalid ones).

Usage: ``python scripts/chromium/record_textdecoder.py [ENCODING ...]``
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser import chromium, describe  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "chromium" / "textdecoder"
SPEC = json.loads((ROOT / "vendor" / "whatwg" / "encodings.json").read_text("utf-8"))

MULTI_BYTE = {"GBK", "gb18030", "Big5", "EUC-JP", "EUC-KR", "Shift_JIS"}
UNICODE = {"UTF-8", "UTF-16LE", "UTF-16BE"}
BOMS = [b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe"]
RANDOM_COUNT = 400
BATCH = 4000

JS_DECODE = """([label, inputs]) => inputs.map(([hex, ignoreBOM]) => {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return new TextDecoder(label, {ignoreBOM}).decode(bytes);
})"""

JS_LABELS = """(labels) => labels.map((label) => {
  try { return new TextDecoder(label).encoding; } catch (e) { return e.name; }
})"""


def encoding_names() -> list[str]:
    return [enc["name"] for group in SPEC for enc in group["encodings"]]


def all_labels() -> list[str]:
    return [label for group in SPEC for enc in group["encodings"] for label in enc["labels"]]


# --- input generators; each yields byte strings -------------------------------------------


def single_bytes() -> Iterator[bytes]:
    for b in range(256):
        yield bytes([b])


def lead_trail_pairs() -> Iterator[bytes]:
    """Every lead byte 0x80-0xFF followed by every byte, and each lead after ASCII at end."""
    for lead in range(0x80, 0x100):
        for trail in range(256):
            yield bytes([lead, trail])
        yield bytes([0x41, lead])
        yield bytes([lead, 0x41, 0x42])


def bom_cases() -> Iterator[bytes]:
    for bom in BOMS:
        yield bom
        yield bom + b"AB"
        yield bom + bom + b"A"
        yield b"A" + bom + b"B"
        yield bom[:-1]
        yield bom[:-1] + b"A"


def gb18030_pointer_bytes(pointer: int) -> bytes:
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def gb18030_cases(rng: random.Random) -> Iterator[bytes]:
    ranges = ROOT / "vendor" / "whatwg" / "index-gb18030-ranges.txt"
    pointers = {0, 7457, 39419, 39420, 189000 - 1, 189000, 189001, 1237575, 1237576}
    for line in ranges.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            p = int(line.split()[0])
            pointers.update({p - 1, p, p + 1})
    for p in sorted(x for x in pointers if x >= 0):
        if p < 126 * 12600:
            yield gb18030_pointer_bytes(p)
    # Every first/second byte with the extreme third/fourth bytes.
    for b1 in range(0x81, 0xFF):
        for b2 in range(0x30, 0x3A):
            for b3, b4 in ((0x81, 0x30), (0xFE, 0x39)):
                yield bytes([b1, b2, b3, b4])
    for _ in range(3000):
        yield bytes(
            [
                rng.randrange(0x81, 0xFF),
                rng.randrange(0x30, 0x3A),
                rng.randrange(0x81, 0xFF),
                rng.randrange(0x30, 0x3A),
            ]
        )
    # Invalid and truncated four-byte forms.
    for bad in (0x00, 0x20, 0x30, 0x41, 0x7F, 0x80, 0xFF):
        yield bytes([0x81, 0x30, bad])
        yield bytes([0x81, 0x30, bad, 0x30])
        yield bytes([0x81, 0x30, 0x81, bad])
        yield bytes([0x81, 0x30, 0x81, bad, 0x41])
        yield bytes([0xFE, 0x39, 0xFE, bad])
    for tail in (b"", b"A", b"\x81", b"\x81\x30", b"\x81\x30\x81"):
        yield b"\x81\x30" + tail
        yield b"\x81\x30\x81" + tail
        yield b"\x84\x31\xa4" + tail
    for b1 in (0x80, 0xFF):
        yield bytes([b1, 0x30, 0x81, 0x30])


def euc_jp_cases() -> Iterator[bytes]:
    """JIS X 0212 three-byte sequences (0x8F lead) and their failures."""
    for b2 in range(0xA1, 0xFF):
        for b3 in range(0xA1, 0xFF):
            yield bytes([0x8F, b2, b3])
    for b2 in range(256):
        yield bytes([0x8F, b2, 0x41])
        yield bytes([0x8F, 0xA1, b2])
        yield bytes([0x8F, b2])
    for b2 in range(256):
        yield bytes([0x8E, b2, 0x41])


def utf8_cases() -> Iterator[bytes]:
    seconds = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    thirds = [0x41, 0x80, 0xBF, 0xC0]
    for lead in range(0xE0, 0x100):
        for second in seconds:
            yield bytes([lead, second])
            for third in thirds:
                yield bytes([lead, second, third])
                for fourth in (0x41, 0x80, 0xBF, 0xC0):
                    yield bytes([lead, second, third, fourth])
    for cp in (0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF):
        encoded = chr(cp).encode("utf-8")
        yield encoded
        for cut in range(1, len(encoded)):
            yield encoded[:cut]
            yield encoded[:cut] + b"A"
            yield b"A" + encoded[:cut]
    # Overlong forms, encoded surrogates, beyond U+10FFFF.
    yield from (
        b"\xc0\x80",
        b"\xc1\xbf",
        b"\xe0\x80\x80",
        b"\xe0\x9f\xbf",
        b"\xf0\x80\x80\x80",
        b"\xf0\x8f\xbf\xbf",
        b"\xed\xa0\x80",
        b"\xed\xbf\xbf",
        b"\xed\xa0\x80\xed\xb0\x80",
        b"\xf4\x90\x80\x80",
        b"\xf5\x80\x80\x80",
        b"\xf8\x88\x80\x80\x80",
        b"\xfc\x84\x80\x80\x80\x80",
        b"\xfe\xfe\xff\xff",
        b"\x80\x80\x80",
    )


def utf16_cases(big_endian: bool) -> Iterator[bytes]:
    def unit(u: int) -> bytes:
        return u.to_bytes(2, "big" if big_endian else "little")

    for high in range(256):
        for low in (0x00, 0x41, 0xFF):
            yield unit(high << 8 | low)
            yield unit(high << 8 | low) + b"A"  # odd length
    leads, trails = (0xD800, 0xDBFF, 0xDA12), (0xDC00, 0xDFFF, 0xDE34)
    for lead in leads:
        yield unit(lead)
        yield unit(lead) + b"A"
        yield unit(lead) + unit(0x41)
        yield unit(lead) + unit(lead)
        yield unit(0x41) + unit(lead)
        for trail in trails:
            yield unit(lead) + unit(trail)
            yield unit(trail) + unit(lead)
            yield unit(lead) + unit(lead) + unit(trail)
            yield unit(lead) + unit(trail) + unit(trail)
            yield unit(lead) + unit(trail)[:1]
    for trail in trails:
        yield unit(trail)
        yield unit(trail) + unit(0x41)
    for u in (0xFEFF, 0xFFFE):
        yield unit(u) + unit(0x41)
        yield unit(0x41) + unit(u)
        yield unit(u) + unit(u)


ISO_2022_JP_ESCAPES = [b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B"]
ISO_2022_JP_PIECES = ISO_2022_JP_ESCAPES + [
    b"\x1b",
    b"\x1b(",
    b"\x1b$",
    b"\x1b(A",
    b"\x1b$A",
    b"\x1b$(D",
    b"\x0e",
    b"\x0f",
    b"\n",
    b"\r",
    b"!",
    b"0",
    b"<",
    b"~",
    b"\x7f",
    b"\x80",
    b"\xa1",
    b"\xff",
    b"A",
    b"$",
    b"(",
    b"\x21\x21",
    b"\x30\x21",
    b"\x7e\x7e",
    b"\x24\x22",
    b"\x3a\x3b",
    b"\x00",
]


def iso_2022_jp_cases(rng: random.Random) -> Iterator[bytes]:
    for esc in [b""] + ISO_2022_JP_ESCAPES:
        yield esc
        yield esc + esc
        yield esc + b"A" + esc
        for b in range(256):
            yield esc + bytes([b])
            yield esc + bytes([b, 0x41])
    for b in range(256):
        yield b"\x1b" + bytes([b])
        yield b"\x1b(" + bytes([b])
        yield b"\x1b$" + bytes([b])
        yield b"\x1b" + bytes([b]) + b"A"
    for lead in range(0x21, 0x7F):  # every JIS X 0208 pair
        for trail in range(0x21, 0x7F):
            yield b"\x1b$B" + bytes([lead, trail])
    for lead in range(256):
        yield b"\x1b$@" + bytes([lead, 0x21])
        yield b"\x1b$B" + bytes([0x30, lead])
    for first in ISO_2022_JP_ESCAPES:  # escape directly followed by another escape
        for second in ISO_2022_JP_ESCAPES:
            yield first + second
            yield first + second + b"A"
            yield first + b"\x30\x21" + second + b"\x30\x21"
    for _ in range(3000):
        yield b"".join(rng.choice(ISO_2022_JP_PIECES) for _ in range(rng.randrange(1, 9)))


def random_cases(rng: random.Random, count: int) -> Iterator[bytes]:
    for _ in range(count):
        out = bytearray()
        for _ in range(rng.randrange(1, 33)):
            r = rng.random()
            if r < 0.5:
                out.append(rng.randrange(0x80, 0x100))
            elif r < 0.8:
                out.append(rng.randrange(0x20, 0x7F))
            else:
                out.append(rng.randrange(0, 0x100))
        yield bytes(out)


def inputs_for(name: str) -> list[tuple[bytes, bool]]:
    """The (input, ignoreBOM) pairs recorded for one encoding, without duplicates."""
    rng = random.Random(f"scrapy-charset textdecoder {name}")
    gens: list[Iterable[bytes]] = [[b""], single_bytes(), bom_cases()]
    if name in MULTI_BYTE or name == "UTF-8":
        gens.append(lead_trail_pairs())
    if name in ("gb18030", "GBK"):
        gens.append(gb18030_cases(rng))
    if name == "EUC-JP":
        gens.append(euc_jp_cases())
    if name == "UTF-8":
        gens.append(utf8_cases())
    if name in ("UTF-16LE", "UTF-16BE"):
        gens.append(utf16_cases(big_endian=name == "UTF-16BE"))
    if name == "ISO-2022-JP":
        gens.append(iso_2022_jp_cases(rng))
    gens.append(random_cases(rng, RANDOM_COUNT))
    seen: set[tuple[bytes, bool]] = set()
    out: list[tuple[bytes, bool]] = []
    for gen in gens:
        for data in gen:
            if (data, False) not in seen:
                seen.add((data, False))
                out.append((data, False))
    # ignoreBOM=true for every input that starts with (part of) a BOM, in every encoding.
    for data, _ in list(out):
        if any(data.startswith(bom[:2]) for bom in BOMS) and (data, True) not in seen:
            seen.add((data, True))
            out.append((data, True))
    return out


def json_line(value: Any) -> str:
    """One JSON line, readable UTF-8 unless it holds a lone surrogate (then \\u escapes)."""
    line = json.dumps(value, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(value, ensure_ascii=True)
    return line + "\n"


def record(page: Any, name: str, meta: dict[str, Any]) -> Path:
    cases = inputs_for(name)
    path = OUT / f"{name}.jsonl.gz"
    if name == "replacement":
        # TextDecoder refuses the replacement encoding (RangeError); its labels.json
        # entries record that, and the document fixtures record its decoding.
        return path
    outputs: list[str] = []
    for start in range(0, len(cases), BATCH):
        batch = [[data.hex(), ignore] for data, ignore in cases[start : start + BATCH]]
        outputs.extend(page.evaluate(JS_DECODE, [name, batch]))
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        header = {**meta, "encoding": name, "label": name, "fatal": False, "count": len(cases)}
        f.write(json.dumps(header, ensure_ascii=False) + "\n")
        for (data, ignore), text in zip(cases, outputs, strict=True):
            f.write(json_line([data.hex(), ignore, text]))
    return path


def record_labels(page: Any, meta: dict[str, Any]) -> None:
    extra = [
        "",
        " utf-8 ",
        "\tUTF8\n",
        "\x0cutf-8",
        "utf-8\x0b",
        "utf-7",
        "utf-16",
        "utf-32",
        "x-unknown",
        "UNICODE-1-1-UTF-8",
        "latin1",
        "l\u0131n1",
        "\u212aoi8-r",
        "ISO-8859-1\x00",
        "shift-jis",
        "windows-949",
        "ucs-2",
        "iso-2022-kr",
        "replacement",
        "x-user-defined",
    ]
    labels = all_labels() + extra
    results = page.evaluate(JS_LABELS, labels)
    data = {**meta, "results": dict(zip(labels, results, strict=True))}
    (OUT / "labels.json").write_text(
        json.dumps(data, ensure_ascii=True, indent=0) + "\n", encoding="utf-8"
    )


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    names = argv or encoding_names()
    with chromium() as browser:
        page = browser.new_page()
        meta = describe(browser, page)
        record_labels(page, meta)
        for name in names:
            path = record(page, name, meta)
            print(name, path.name if path.exists() else "(not recordable)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
