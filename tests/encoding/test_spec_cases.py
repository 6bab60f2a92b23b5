"""Hand-written cases straight from the Encoding Standard's decoder steps.

Each case names the step it exercises; expected strings are written out from the spec text.
"""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import decode, reference
from scrapy_charset.encoding.labels import BY_NAME

# Every test here runs on the compiled CJK decoders and on the pure-Python paths.
pytestmark = pytest.mark.usefixtures("cjk_backend")

R = "\ufffd"

CASES: list[tuple[str, bytes, str]] = [
    # UTF-8: maximal subparts, one U+FFFD each; boundaries after E0/ED/F0/F4.
    ("UTF-8", b"\xe2\x82\xac", "\u20ac"),
    ("UTF-8", b"\xe2\x82", R),  # truncated at end: one error
    ("UTF-8", b"\xe2\x82A", R + "A"),  # invalid trail: error, the byte is restored
    ("UTF-8", b"\xc0\x80", R + R),  # C0 is never a lead byte
    ("UTF-8", b"\xe0\x80\x80", R + R + R),  # overlong: 80 below E0's lower boundary A0
    ("UTF-8", b"\xed\xa0\x80", R + R + R),  # surrogate: A0 above ED's upper boundary 9F
    ("UTF-8", b"\xf4\x90\x80\x80", R * 4),  # above U+10FFFF
    ("UTF-8", b"\xf0\x9f\x98", R),
    ("UTF-8", b"\xf0\x9f\x98\x80", "\U0001f600"),
    ("UTF-8", b"\xf5\x80", R + R),
    ("UTF-8", b"\x80\xbf", R + R),
    # UTF-16: odd length and lone surrogates.
    ("UTF-16LE", b"A\x00B", "A" + R),
    ("UTF-16LE", b"\x00\xd8", R),  # leading surrogate at end
    ("UTF-16LE", b"\x00\xd8A\x00", R + "A"),  # leading surrogate, then a non-trail: restored
    ("UTF-16LE", b"\x00\xdcA\x00", R + "A"),  # lone trailing surrogate
    ("UTF-16LE", b"\x3d\xd8\x00\xde", "\U0001f600"),
    ("UTF-16LE", b"\x00\xd8\x00", R),  # leading surrogate then one byte: a single error
    ("UTF-16BE", b"\xd8\x3d\xde\x00", "\U0001f600"),
    ("UTF-16BE", b"\xd8\x00\xd8\x00\xdc\x00", R + "\U00010000"),
    # Single-byte: unmapped bytes are errors.
    ("windows-1252", b"\x80\x81\x9f", "\u20ac\x81\u0178"),
    ("ISO-8859-3", b"\xa5", R),
    ("windows-874", b"\xdb", R),
    ("x-user-defined", b"a\x80\xff", "a\uf780\uf7ff"),
    # replacement: one error for any non-empty input.
    ("replacement", b"abc\xff", R),
    ("replacement", b"", ""),
    # gb18030 / GBK: 0x80 is the euro sign; 0xFF is an error.
    ("gb18030", b"\x80\xff", "\u20ac" + R),
    ("GBK", b"\x81\x40", "\u4e02"),
    ("gb18030", b"\xa3\xa0", "\u3000"),
    ("gb18030", b"\x81\x30\x81\x30", "\x80"),  # four-byte, pointer 0
    ("gb18030", b"\x81\x35\xf4\x37", "\ue7c7"),  # pointer 7457
    ("gb18030", b"\x84\x31\xa4\x39", "\uffff"),  # pointer 39419: last of the BMP range
    ("gb18030", b"\x84\x31\xa5\x30", R),  # pointer 39420: gap before 189000
    ("gb18030", b"\x90\x30\x81\x30", "\U00010000"),  # pointer 189000
    ("gb18030", b"\xe3\x32\x9a\x35", "\U0010ffff"),  # pointer 1237575
    ("gb18030", b"\xe3\x32\x9a\x36", R),  # pointer 1237576: beyond
    ("gb18030", b"\x81\x30\x81", R),  # truncated four-byte form
    ("gb18030", b"\x81\x30\x81 ", R + "0" + R + " "),  # fourth not a digit: restore 3 bytes
    ("gb18030", b"\x81\x30\x81A", R + "0\u4e04"),  # ... and the restored 0x81 0x41 is a pair
    ("gb18030", b"\x81\x30A", R + "0A"),  # third not a lead: restore second and byte
    ("gb18030", b"\x81 ", R + " "),  # bad trail, ASCII: restored
    ("gb18030", b"\x81\x7f", R + "\x7f"),  # 0x7F is no trail and ASCII: restored
    ("gb18030", b"\x81\xff", R),  # bad trail, not ASCII: consumed
    # Big5: the four pointers that give two code points.
    ("Big5", b"\x88\x62\x88\x64", "\u00ca\u0304\u00ca\u030c"),
    ("Big5", b"\x88\xa3\x88\xa5", "\u00ea\u0304\u00ea\u030c"),
    ("Big5", b"\xa4\x40", "\u4e00"),
    ("Big5", b"\x80", R),
    ("Big5", b"\x81A", R + "A"),
    ("Big5", b"\xa4", R),
    ("Big5", b"\xa4\x80", R),
    # EUC-JP: katakana, JIS X 0212, JIS X 0208.
    ("EUC-JP", b"\x8e\xa1", "\uff61"),
    ("EUC-JP", b"\x8e\xe0", R),  # 0x8E then non-katakana: error, byte consumed
    ("EUC-JP", b"\x8eA", R + "A"),
    ("EUC-JP", b"\x8f\xb0\xa1", "\u4e02"),
    ("EUC-JP", b"\x8f\xa1\xa1", R),  # null in jis0212
    ("EUC-JP", b"\x8f\xb0", R),  # truncated three-byte form
    ("EUC-JP", b"\xb0\xa1", "\u4e9c"),
    ("EUC-JP", b"\xb0A", R + "A"),
    # Shift_JIS: 0x80 is U+0080; EUDC; katakana; invalid leads.
    ("Shift_JIS", b"\x80\xa1\xdf", "\x80\uff61\uff9f"),
    ("Shift_JIS", b"\x82\xa0", "\u3042"),
    ("Shift_JIS", b"\xf0\x40", "\ue000"),  # pointer 8836: EUDC
    ("Shift_JIS", b"\xf9\xfc", "\ue757"),  # pointer 10715: last EUDC
    ("Shift_JIS", b"\xa0\xfd\xfe\xff", R * 4),
    ("Shift_JIS", b"\x82A", R + "A"),
    ("Shift_JIS", b"\x82\x7f", R + "\x7f"),
    ("Shift_JIS", b"\x82\xfd", R),
    ("Shift_JIS", b"\x82", R),
    # EUC-KR
    ("EUC-KR", b"\xb0\xa1", "\uac00"),
    ("EUC-KR", b"\x81\x41", "\uac02"),
    ("EUC-KR", b"\x81\x40", R + "@"),
    ("EUC-KR", b"\x80", R),
    ("EUC-KR", b"\xb0", R),
    # ISO-2022-JP: escapes, the output flag, ESC at the end.
    ("ISO-2022-JP", b"\x1b$B\x30\x21\x1b(B", "\u4e9c"),
    ("ISO-2022-JP", b"\x1b(J\x5c\x7e", "\u00a5\u203e"),
    ("ISO-2022-JP", b"\x1b(I\x21\x5f", "\uff61\uff9f"),
    ("ISO-2022-JP", b"\x1b(B\x1b(J", R),  # two escapes with no output between: error
    ("ISO-2022-JP", b"\x1b(Ba\x1b(Jb", "ab"),
    ("ISO-2022-JP", b"\x1b", R),  # ESC at end
    ("ISO-2022-JP", b"\x1b(", R + "("),  # escape start then end: restore leading byte
    ("ISO-2022-JP", b"\x1b(Z", R + "(Z"),  # unknown escape: restore both
    ("ISO-2022-JP", b"\x1bA", R + "A"),
    ("ISO-2022-JP", b"\x0e\x0f\x80", R * 3),
    ("ISO-2022-JP", b"\x1b$B\x30", R),  # trailing byte at end
    ("ISO-2022-JP", b"\x1b$B\x30\x1b(Ba", R + "a"),  # ESC in trailing byte: error, then escape
    ("ISO-2022-JP", b"\x1b$B\x22\x2f", R),  # null in jis0208
    ("ISO-2022-JP", b"\x1b$B\x30\x0a", R),  # non-trail byte after a lead: error, consumed
]


@pytest.mark.parametrize(("name", "data", "expected"), CASES)
def test_reference_decoder_follows_the_spec(name: str, data: bytes, expected: str) -> None:
    assert reference.decode_without_bom(data, BY_NAME[name]) == expected


@pytest.mark.parametrize(("name", "data", "expected"), CASES)
def test_decode_follows_the_spec(name: str, data: bytes, expected: str) -> None:
    assert decode(data, BY_NAME[name], bom="keep") == expected
