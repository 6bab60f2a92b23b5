"""The public decoding API: BOM modes, argument types and hostile input."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import (
    ALL_ENCODINGS,
    REPLACEMENT,
    UTF_8,
    UTF_16BE,
    UTF_16LE,
    WINDOWS_1252,
    IncrementalDecoder,
    bom_sniff,
    decode,
)

BOMS = [(b"\xef\xbb\xbf", UTF_8), (b"\xfe\xff", UTF_16BE), (b"\xff\xfe", UTF_16LE)]


@pytest.mark.parametrize(("mark", "encoding"), BOMS)
def test_bom_sniff_finds_each_byte_order_mark(mark: bytes, encoding: object) -> None:
    assert bom_sniff(mark + b"x") is encoding
    assert bom_sniff(bytearray(mark)) is encoding
    assert bom_sniff(memoryview(mark)) is encoding


@pytest.mark.parametrize("data", [b"", b"\xef\xbb", b"\xfe", b"abc", b"\xbb\xef\xbf"])
def test_bom_sniff_without_a_bom_is_none(data: bytes) -> None:
    assert bom_sniff(data) is None


def test_sniff_lets_the_bom_override_the_label_and_removes_it() -> None:
    assert decode(b"\xef\xbb\xbf\xc3\xa9", "windows-1252") == "\u00e9"
    assert decode(b"\xff\xfeA\x00", "shift_jis") == "A"
    assert decode(b"\xfe\xff\x00A", REPLACEMENT) == "A"
    # Only one BOM is removed.
    assert decode(b"\xef\xbb\xbf\xef\xbb\xbfa", UTF_8) == "\ufeffa"


def test_strip_removes_only_the_encodings_own_bom() -> None:
    assert decode(b"\xef\xbb\xbfa", UTF_8, bom="strip") == "a"
    assert decode(b"\xff\xfeA\x00", UTF_16LE, bom="strip") == "A"
    assert decode(b"\xfe\xff\x00A", UTF_16BE, bom="strip") == "A"
    # A UTF-16BE BOM read as UTF-16LE is U+FFFE, not a BOM.
    assert decode(b"\xfe\xff\x00A", UTF_16LE, bom="strip") == "\ufffe\u4100"
    assert decode(b"\xef\xbb\xbfa", WINDOWS_1252, bom="strip") == "\u00ef\u00bb\u00bfa"


def test_keep_decodes_the_bom_as_a_character() -> None:
    assert decode(b"\xef\xbb\xbfa", UTF_8, bom="keep") == "\ufeffa"
    assert decode(b"\xef\xbb\xbfa", "latin1", bom="keep") == "\u00ef\u00bb\u00bfa"


def test_labels_are_looked_up() -> None:
    assert decode(b"\x80", " Latin1 ") == "\u20ac"
    assert decode(b"\x82\xa0", "x-sjis") == "\u3042"


@pytest.mark.parametrize(
    "label", ["utf-7", "", "\x00", "utf-8\x00", "\u212aoi8-r", "x" * 100_000, "latin_1"]
)
def test_unknown_labels_raise_lookup_error(label: str) -> None:
    with pytest.raises(LookupError):
        decode(b"abc", label)
    with pytest.raises(LookupError):
        IncrementalDecoder(label)


@pytest.mark.parametrize("label", [None, 5, 1.5, ["utf-8"], object()])
def test_non_string_labels_raise_type_error(label: object) -> None:
    with pytest.raises(TypeError):
        decode(b"abc", label)  # type: ignore[arg-type]


@pytest.mark.parametrize("data", ["abc", None, 5, [1, 2], object()])
def test_non_bytes_data_raises_type_error(data: object) -> None:
    with pytest.raises(TypeError):
        decode(data, UTF_8)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bom_sniff(data)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        IncrementalDecoder(UTF_8).decode(data)  # type: ignore[arg-type]


def test_bad_bom_mode_raises_value_error() -> None:
    with pytest.raises(ValueError):
        decode(b"abc", UTF_8, bom="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_every_encoding_accepts_bytearray_and_memoryview(encoding: object) -> None:
    data = bytes(range(256)) * 2
    expected = decode(data, encoding)  # type: ignore[arg-type]
    assert decode(bytearray(data), encoding) == expected  # type: ignore[arg-type]
    assert decode(memoryview(data), encoding) == expected  # type: ignore[arg-type]
    assert decode(memoryview(bytearray(data)).cast("H"), encoding) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_empty_input_is_empty_text(encoding: object) -> None:
    for bom in ("sniff", "strip", "keep"):
        assert decode(b"", encoding, bom=bom) == ""  # type: ignore[arg-type]
        assert IncrementalDecoder(encoding, bom=bom).decode(b"", final=True) == ""  # type: ignore[arg-type]


def test_replacement_is_one_error_for_any_non_empty_input() -> None:
    for data in (b"a", b"\x00", bytes(range(256)) * 100):
        assert decode(data, REPLACEMENT) == "\ufffd"
    dec = IncrementalDecoder(REPLACEMENT)
    assert dec.decode(b"") + dec.decode(b"abc") + dec.decode(b"def", final=True) == "\ufffd"


def test_incremental_decoder_sniffs_a_split_bom() -> None:
    dec = IncrementalDecoder(WINDOWS_1252)
    parts = [dec.decode(b"\xef"), dec.decode(b"\xbb"), dec.decode(b"\xbf\xc3"), dec.decode(b"\xa9")]
    assert "".join(parts) + dec.decode(b"", final=True) == "\u00e9"
    assert dec.encoding is WINDOWS_1252  # reset after final
    dec = IncrementalDecoder(WINDOWS_1252)
    assert dec.decode(b"\xef\xbb", final=True) == "\u00ef\u00bb"


def test_incremental_strip_only_looks_at_the_first_code_point() -> None:
    dec = IncrementalDecoder(UTF_8, bom="strip")
    out = dec.decode(b"\xef\xbb") + dec.decode(b"\xbf") + dec.decode(b"\xef\xbb\xbf", final=True)
    assert out == "\ufeff"
