"""The fast decoders against the spec-literal reference decoders.

Exhaustive over all 1- and 2-byte inputs of every encoding whose decoder has state, over all
3-byte inputs drawn from each encoding's boundary bytes, and over random inputs.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, decode, reference
from scrapy_charset.encoding.labels import BY_NAME

# Every test here runs on the compiled CJK decoders and on the pure-Python paths.
pytestmark = pytest.mark.usefixtures("cjk_backend")

STATEFUL = [
    "UTF-8",
    "UTF-16BE",
    "UTF-16LE",
    "GBK",
    "gb18030",
    "Big5",
    "EUC-JP",
    "ISO-2022-JP",
    "Shift_JIS",
    "EUC-KR",
]
# Bytes where some decoder's ranges start or end, plus a few ordinary ones.
BOUNDARY_BYTES = sorted(
    {0x00, 0x0E, 0x1B, 0x24, 0x28, 0x2F, 0x30, 0x39, 0x3F, 0x40, 0x41, 0x42, 0x5C, 0x7E}
    | {0x7F, 0x80, 0x81, 0x84, 0x8E, 0x8F, 0x9F, 0xA0, 0xA1, 0xB0, 0xD8, 0xDC, 0xDF, 0xE0}
    | {0xED, 0xF0, 0xF4, 0xFC, 0xFE, 0xFF}
)
# For the exhaustive 3-byte sweep, fewer.
TRIPLE_BYTES = [0x00, 0x1B, 0x24, 0x28, 0x30, 0x39, 0x40, 0x42, 0x7E, 0x7F, 0x80, 0x81]
TRIPLE_BYTES += [0x8E, 0x8F, 0xA0, 0xA1, 0xB0, 0xD8, 0xDC, 0xDF, 0xE0, 0xED, 0xF0, 0xFE, 0xFF]


def keep(data: bytes, encoding: Encoding) -> str:
    return decode(data, encoding, bom="keep")


@pytest.mark.parametrize("name", STATEFUL)
def test_every_one_and_two_byte_input(name: str) -> None:
    encoding = BY_NAME[name]
    inputs = [bytes([a]) for a in range(256)]
    inputs += [bytes([a, b]) for a in range(256) for b in range(256)]
    wrong = [
        data.hex()
        for data in inputs
        if keep(data, encoding) != reference.decode_without_bom(data, encoding)
    ]
    assert not wrong, f"{len(wrong)} inputs differ, e.g. {wrong[:10]}"


@pytest.mark.parametrize("name", STATEFUL)
def test_every_three_byte_input_of_boundary_bytes(name: str) -> None:
    encoding = BY_NAME[name]
    wrong = []
    for triple in itertools.product(TRIPLE_BYTES, repeat=3):
        data = bytes(triple)
        if keep(data, encoding) != reference.decode_without_bom(data, encoding):
            wrong.append(data.hex())
    assert not wrong, f"{len(wrong)} inputs differ, e.g. {wrong[:10]}"


@pytest.mark.parametrize("name", STATEFUL)
def test_long_random_inputs_of_boundary_bytes(name: str) -> None:
    # Long inputs exercise resynchronisation after errors and the unit-by-unit path.
    encoding = BY_NAME[name]
    rng = random.Random(name)
    for length in (50, 300, 3000, 70_000):
        data = bytes(rng.choice(BOUNDARY_BYTES) for _ in range(length))
        assert keep(data, encoding) == reference.decode_without_bom(data, encoding), length


def _valid_units(name: str, rng: random.Random, count: int) -> bytes:
    """Mostly valid text with a sprinkling of arbitrary bytes."""
    encoding = BY_NAME[name]
    sample = "Text テキスト 文本 텍스트 Ελληνικά ¥~\\ ①Ⅱ ḿ ／ €"
    codec = encoding.python_codec
    good = sample.encode(codec, "ignore") if name != "replacement" else b""
    parts = []
    for _ in range(count):
        parts.append(good[rng.randrange(len(good)) :] if good else b"")
        parts.append(bytes(rng.randrange(256) for _ in range(rng.randrange(3))))
    return b"".join(parts)


@pytest.mark.parametrize("name", STATEFUL)
def test_mostly_valid_text_with_noise(name: str) -> None:
    encoding = BY_NAME[name]
    rng = random.Random(f"noise-{name}")
    for _ in range(30):
        data = _valid_units(name, rng, 20)
        assert keep(data, encoding) == reference.decode_without_bom(data, encoding), data.hex()


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=64), index=st.integers(0, len(ALL_ENCODINGS) - 1))
def test_random_bytes(data: bytes, index: int) -> None:
    encoding = ALL_ENCODINGS[index]
    assert keep(data, encoding) == reference.decode_without_bom(data, encoding)
    assert decode(data, encoding) == reference.decode(data, encoding)


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_every_single_byte(encoding: Encoding) -> None:
    for byte in range(256):
        data = bytes([byte])
        assert keep(data, encoding) == reference.decode_without_bom(data, encoding), byte


ISO_ESCAPES = [b"\x1b(B", b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I", b"\x1b", b"\x1b(", b"\x1b$"]
ISO_BYTES = [b"\n", b"\r", b"\x00", b" ", b"!", b"0!", b"$\"", b"-!", b"!A", b"\"L", b"~", b"\\"]
ISO_BYTES += [b"\x0e", b"\x7f", b"\x80", b"\xa1", b"t", b"\x1f", b"\x1a"]


@pytest.mark.parametrize("seed", range(40))
def test_iso_2022_jp_structured(seed: int) -> None:
    # Escape sequences and segments, mostly well formed: this exercises every fast path's
    # guard (Python's codec, the EUC-JP conversion, segment by segment).
    rng = random.Random(seed)
    encoding = BY_NAME["ISO-2022-JP"]
    for _ in range(25):
        parts = []
        clean = rng.random() < 0.5
        for _ in range(rng.randrange(1, 12)):
            parts.append(rng.choice(ISO_ESCAPES[:3] if clean else ISO_ESCAPES))
            segment = [rng.choice([b"0!", b"$\"", b"!A", b"ab"]) for _ in range(rng.randrange(4))]
            if not clean:
                segment.append(rng.choice(ISO_BYTES))
            parts.append(b"".join(segment))
        data = b"".join(parts)
        assert keep(data, encoding) == reference.decode_without_bom(data, encoding), data


@pytest.mark.parametrize("special", [b"\x1b$B0!$\"\x1b(B", b"\x1b(J\\~", b"\x0e", b"\x0f", b"\x80"])
def test_iso_2022_jp_long_runs(special: bytes) -> None:
    # The compiled decoder takes ASCII runs eight bytes at a time and two-byte characters in a
    # loop of their own: a byte that ends a run must stop it at every offset.
    encoding = BY_NAME["ISO-2022-JP"]
    for offset in range(17):
        for run in (b"a" * 24, b"\x1b$B" + b"0!" * 12):
            data = run[: len(run) - 24 + offset] + special + run
            assert keep(data, encoding) == reference.decode_without_bom(data, encoding), data
