"""Every pointer of every index and every byte of every single-byte encoding, decoded.

The expected code points come straight from ``vendor/whatwg/index-*.txt``, parsed here on
their own (not through the generated tables), and the byte sequences are built from each
decoder's pointer formula. Both the public ``decode`` and the reference decoders are checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scrapy_charset.encoding import Encoding, decode, reference
from scrapy_charset.encoding.labels import BY_NAME

# Every test here runs on the compiled CJK decoders and on the pure-Python paths.
pytestmark = pytest.mark.usefixtures("cjk_backend")

WHATWG = Path(__file__).resolve().parents[2] / "vendor" / "whatwg"


def index(name: str) -> dict[int, int]:
    table = {}
    for line in (WHATWG / f"index-{name}.txt").read_text("utf-8").split("\n"):
        fields = line.split("\t")
        if line and not line.startswith("#"):
            table[int(fields[0])] = int(fields[1], 16)
    return table


def both(data: bytes, encoding: Encoding) -> tuple[str, str]:
    return decode(data, encoding, bom="keep"), reference.decode_without_bom(data, encoding)


def check_all_pointers(
    name: str,
    table: dict[int, int],
    to_bytes: Callable[[int], bytes],
    expected: Callable[[int], str],
) -> None:
    """Decode every pointer's bytes in one input; each must give its code point(s)."""
    encoding = BY_NAME[name]
    pointers = sorted(table)
    data = b"".join(map(to_bytes, pointers))
    want = "".join(expected(p) for p in pointers)
    fast, ref = both(data, encoding)
    assert fast == want
    assert ref == want


SINGLE_BYTE = [
    (enc["name"], "iso-8859-8" if enc["name"] == "ISO-8859-8-I" else enc["name"].lower())
    for group in json.loads((WHATWG / "encodings.json").read_text("utf-8"))
    if group["heading"] == "Legacy single-byte encodings"
    for enc in group["encodings"]
]


def test_all_28_single_byte_encodings_are_swept() -> None:
    assert len(SINGLE_BYTE) == 28


@pytest.mark.parametrize(("name", "index_name"), SINGLE_BYTE)
def test_every_byte_of_a_single_byte_encoding(name: str, index_name: str) -> None:
    table = index(index_name)
    data = bytes(range(256))
    want = "".join(
        chr(b) if b < 0x80 else chr(table[b - 0x80]) if b - 0x80 in table else "\ufffd"
        for b in data
    )
    fast, ref = both(data, BY_NAME[name])
    assert fast == want
    assert ref == want
    # One at a time too: no byte depends on its neighbours.
    for b in range(256):
        assert decode(bytes([b]), BY_NAME[name]) == want[b]


def test_x_user_defined_every_byte() -> None:
    data = bytes(range(256))
    want = "".join(chr(b) if b < 0x80 else chr(0xF780 + b - 0x80) for b in data)
    assert both(data, BY_NAME["x-user-defined"]) == (want, want)


def euc_pair(pointer: int) -> bytes:
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def shift_jis_pair(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 188)
    return bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])


def gb_pair(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 190)
    return bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])


def big5_pair(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 157)
    return bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)])


BIG5_TWO = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}


def test_jis0208_in_euc_jp() -> None:
    table = {p: c for p, c in index("jis0208").items() if p < 94 * 94}
    check_all_pointers("EUC-JP", table, euc_pair, lambda p: chr(table[p]))


def test_jis0212_in_euc_jp() -> None:
    table = index("jis0212")
    check_all_pointers("EUC-JP", table, lambda p: b"\x8f" + euc_pair(p), lambda p: chr(table[p]))


def test_jis0208_in_iso_2022_jp() -> None:
    table = {p: c for p, c in index("jis0208").items() if p < 94 * 94}
    pairs = {p: bytes([b - 0x80 for b in euc_pair(p)]) for p in table}
    check_all_pointers(
        "ISO-2022-JP",
        table,
        lambda p: b"\x1b$B" + pairs[p] + b"\x1b(B.",
        lambda p: chr(table[p]) + ".",
    )


def test_jis0208_in_shift_jis_with_eudc() -> None:
    table = index("jis0208")
    eudc = {p: 0xE000 - 8836 + p for p in range(8836, 10716)}
    table = {**{p: c for p, c in table.items() if not 8836 <= p <= 10715}, **eudc}
    check_all_pointers("Shift_JIS", table, shift_jis_pair, lambda p: chr(table[p]))


def test_euc_kr() -> None:
    table = index("euc-kr")
    check_all_pointers("EUC-KR", table, gb_pair_euc_kr, lambda p: chr(table[p]))


def gb_pair_euc_kr(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 190)
    return bytes([lead + 0x81, trail + 0x41])


@pytest.mark.parametrize("name", ["GBK", "gb18030"])
def test_gb18030_two_byte(name: str) -> None:
    table = index("gb18030")
    check_all_pointers(name, table, gb_pair, lambda p: chr(table[p]))


def test_big5_with_the_two_code_point_pointers() -> None:
    table = index("big5")
    check_all_pointers("Big5", table, big5_pair, lambda p: BIG5_TWO.get(p, chr(table[p])))


def gb18030_four_byte(pointer: int) -> bytes:
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def ranges_code_point(pointer: int, ranges: list[tuple[int, int]]) -> str:
    """index gb18030 ranges code point, written out again for the test."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return "\ufffd"
    if pointer == 7457:
        return "\ue7c7"
    offset, code_point = max((p, c) for p, c in ranges if p <= pointer)
    return chr(code_point + pointer - offset)


def test_gb18030_every_four_byte_pointer_of_the_bmp() -> None:
    ranges = sorted(index("gb18030-ranges").items())
    pointers = range(0, 39420 + 50)  # the BMP ranges and the start of the null gap
    data = b"".join(map(gb18030_four_byte, pointers))
    want = "".join(ranges_code_point(p, ranges) for p in pointers)
    fast, ref = both(data, BY_NAME["gb18030"])
    assert fast == want
    assert ref == want
    assert decode(data, "GBK") == want  # GBK's decoder is gb18030's


def test_gb18030_every_four_byte_pointer_outside_the_bmp() -> None:
    # 189000..1237575 map linearly to U+10000..U+10FFFF; around them: null (an error each).
    pointers = list(range(188990, 1237576 + 50))
    data = b"".join(map(gb18030_four_byte, pointers))
    want = "".join(
        chr(0x10000 + p - 189000) if 189000 <= p <= 1237575 else "\ufffd" for p in pointers
    )
    assert decode(data, "gb18030") == want
    sample = slice(0, None, 997)  # the spec-literal decoder is slow: every 997th pointer
    sample_data = b"".join(map(gb18030_four_byte, pointers[sample]))
    assert reference.decode_without_bom(sample_data, BY_NAME["gb18030"]) == want[sample]


def test_gb18030_ranges_from_the_tables_match_the_file() -> None:
    ranges = sorted(index("gb18030-ranges").items())
    for pointer in list(range(0, 39420, 7)) + [7457, 39419, 39420, 189000, 1237575, 1237576]:
        expected = ranges_code_point(pointer, ranges)
        got = reference.gb18030_ranges_code_point(pointer)
        assert ("\ufffd" if got is None else chr(got)) == expected, pointer


def test_katakana_index_is_the_half_width_katakana_block() -> None:
    # The decoders map half-width katakana arithmetically (0xFF61 + n); the index, used by
    # encoders, must say the same about which characters those are.
    table = index("iso-2022-jp-katakana")
    assert len(table) == 63 == len(decode(bytes(range(0xA1, 0xE0)), "shift_jis"))
    half_width = decode(b"\x1b(I" + bytes(range(0x21, 0x60)), "iso-2022-jp")
    assert half_width == "".join(chr(0xFF61 + i) for i in range(63))
