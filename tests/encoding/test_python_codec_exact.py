"""``Encoding.python_codec_exact`` is the measured truth.

A flag that is true must survive a sweep (every byte; every 2-byte input for decoders with
state; 3-byte inputs of boundary bytes and random inputs for those too); a flag that is false
must be backed by an input where Python's codec and the spec disagree.
"""

from __future__ import annotations

import itertools
import random

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, reference

STATEFUL = {"UTF-8", "UTF-16BE", "UTF-16LE", "GBK", "gb18030", "Big5", "EUC-JP"}
STATEFUL |= {"ISO-2022-JP", "Shift_JIS", "EUC-KR", "replacement"}
BOUNDARY = [0x00, 0x0E, 0x1B, 0x24, 0x28, 0x30, 0x42, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0xA0]
BOUNDARY += [0xA1, 0xBF, 0xC2, 0xD8, 0xDC, 0xE0, 0xED, 0xF0, 0xF4, 0xFE, 0xFF]


def sweep_inputs(encoding: Encoding) -> list[bytes]:
    inputs = [bytes([a]) for a in range(256)]
    if encoding.name in STATEFUL:
        inputs += [bytes([a, b]) for a in range(256) for b in range(256)]
        inputs += [bytes(t) for t in itertools.product(BOUNDARY, repeat=3)]
        rng = random.Random(encoding.name)
        inputs += [rng.randbytes(rng.randrange(4, 40)) for _ in range(2000)]
    return inputs


def python_decode(data: bytes, encoding: Encoding) -> str:
    return data.decode(encoding.python_codec, "replace")


def first_difference(encoding: Encoding) -> bytes | None:
    for data in sweep_inputs(encoding):
        if python_decode(data, encoding) != reference.decode_without_bom(data, encoding):
            return data
    return None


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_python_codec_exact_flag_is_measured(encoding: Encoding) -> None:
    difference = first_difference(encoding)
    if encoding.python_codec_exact:
        assert difference is None, f"{encoding} is not exact: {difference!r}"
    else:
        assert difference is not None, f"{encoding} looks exact; flag it so"


def test_the_flags() -> None:
    exact = sorted(e.name for e in ALL_ENCODINGS if e.python_codec_exact)
    assert "UTF-8" in exact and "UTF-16LE" in exact and "windows-1252" not in exact
    assert not any(e.python_codec_exact for e in ALL_ENCODINGS if e.name in ("Shift_JIS", "GBK"))
