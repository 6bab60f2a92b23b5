"""Property tests for the decoders: any bytes, any label, any split, never a surprise."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import (
    ALL_ENCODINGS,
    REPLACEMENT,
    Encoding,
    IncrementalDecoder,
    bom_sniff,
    decode,
    lookup,
)
from tests.hostile.strategies import hostile_bytes, hostile_label

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
BOM_MODES = ("sniff", "strip", "keep")
_TOO_SLOW = [HealthCheck.too_slow]
FAST = settings(max_examples=200, deadline=None, suppress_health_check=_TOO_SLOW)
# Run once per encoding (40 times), so fewer examples each.
PER_ENCODING = settings(max_examples=25, deadline=None, suppress_health_check=_TOO_SLOW)


def assert_clean_text(text: object) -> None:
    assert isinstance(text, str)
    assert not LONE_SURROGATE.search(text), ascii(text)


@FAST
@given(data=hostile_bytes, label=hostile_label, bom=st.sampled_from(BOM_MODES))
def test_any_label_decodes_or_raises_lookup_error(data: bytes, label: str, bom: str) -> None:
    if lookup(label) is None:
        with pytest.raises(LookupError):
            decode(data, label, bom=bom)  # type: ignore[arg-type]
        with pytest.raises(LookupError):
            IncrementalDecoder(label)
    else:
        assert_clean_text(decode(data, label, bom=bom))  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 5, 1.5, ["utf-8"], object(), b"utf-8"])
def test_label_of_wrong_type_is_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        decode(b"abc", bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        IncrementalDecoder(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, "abc", 5, [1, 2], object()])
def test_data_of_wrong_type_is_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        decode(bad, "utf-8")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        IncrementalDecoder("utf-8").decode(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=lambda e: e.name)
@PER_ENCODING
@given(
    data=hostile_bytes,
    bom=st.sampled_from(BOM_MODES),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
def test_chunked_equals_one_shot(encoding: Encoding, data: bytes, bom: str, cuts: list[int]):
    whole = decode(data, encoding, bom=bom)  # type: ignore[arg-type]
    assert_clean_text(whole)
    if encoding is REPLACEMENT and (bom != "sniff" or bom_sniff(data) is None):
        assert whole == ("\ufffd" if data else "")
    points = sorted({min(c, len(data)) for c in cuts})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    decoder = IncrementalDecoder(encoding, bom=bom)  # type: ignore[arg-type]
    pieces = [decoder.decode(chunk) for chunk in chunks]
    pieces.append(decoder.decode(b"", final=True))
    for piece in pieces:
        assert_clean_text(piece)
    assert "".join(pieces) == whole


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=lambda e: e.name)
def test_bytearray_and_memoryview_decode_like_bytes(encoding: Encoding) -> None:
    data = bytes(range(256)) + b"\x1b$B\x30\x21\x1b(B\x81\x30\x81\x30\xe3\x81\x82"
    expected = decode(data, encoding)
    assert decode(bytearray(data), encoding) == expected
    assert decode(memoryview(data), encoding) == expected
    padded = data + b"a" * (-len(data) % 8)  # a whole number of 8-byte items
    assert decode(memoryview(padded).cast("Q"), encoding) == decode(padded, encoding)


@pytest.mark.parametrize("data", [b"x", b"\x00", b"<p>", b"\xef\xbb\xbf", b"\xff" * 1000])
def test_replacement_is_one_fffd_for_any_nonempty_input(data: bytes) -> None:
    assert decode(data, "iso-2022-kr", bom="keep") == "\ufffd"
    assert decode(b"", "iso-2022-kr") == ""


def test_bad_bom_mode_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="bom"):
        decode(b"abc", "utf-8", bom="maybe")  # type: ignore[arg-type]
