"""The Encoding Standard's encoders: compiled and pure Python against the spec-literal ones.

Sweeps every index pointer (round trip where the spec's encoder uses the pointer, an error or
another pointer's bytes where it excludes it) and every BMP code point plus astral samples, in
both error modes.
"""

from __future__ import annotations

import os
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import decode, encoders, reference, reference_encoders
from scrapy_charset.encoding.encoders import encode, encode_python, output_encoding
from scrapy_charset.encoding.labels import ALL_ENCODINGS, BY_NAME

ENCODABLE = [e.name for e in ALL_ENCODINGS if e.name not in ("replacement",)]
LEGACY = [n for n in ENCODABLE if n not in ("UTF-8", "UTF-16BE", "UTF-16LE")]
CJK_INDEX = {
    "Big5": "index_big5_data",
    "EUC-KR": "index_euc_kr_data",
    "gb18030": "index_gb18030_data",
    "GBK": "index_gb18030_data",
    "EUC-JP": "index_jis0208_data",
    "Shift_JIS": "index_jis0208_data",
    "ISO-2022-JP": "index_jis0208_data",
}
ASTRAL_SAMPLES = "\U00010000\U0001f600\U00020000\U0002000b\U00027607\U0002a6a5\U0010ffff"


@pytest.fixture(params=["compiled", "python"])
def encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on the compiled encoders and on the pure-Python ones."""
    if request.param == "python":
        monkeypatch.setattr(encoders, "_compiled", lambda: None)
    elif encoders._compiled() is None:
        if os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") == "1":
            pytest.fail("the compiled encoders were required but not built")
        pytest.skip("built without the compiled encoders")
    return request.param  # type: ignore[no-any-return]


_EVERY_CODE_POINT = (
    "".join(chr(cp) for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF) + ASTRAL_SAMPLES
)


@cache
def _spec_bytes(name: str) -> bytes:
    return reference_encoders.encode(_EVERY_CODE_POINT, name)


@pytest.mark.parametrize("name", LEGACY)
def test_every_code_point_html_mode_matches_the_spec(name: str, encoder: str) -> None:
    assert encode(_EVERY_CODE_POINT, name) == _spec_bytes(name)


@pytest.mark.parametrize("name", LEGACY)
def test_fatal_mode_raises_exactly_where_the_spec_errs(name: str, encoder: str) -> None:
    table = encoders.encoder_table(name)
    astral = encoders.big5_astral() if name == "Big5" else {}
    for cp in [*range(0x80, 0x10000, 61), *map(ord, ASTRAL_SAMPLES), *astral]:
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        try:
            expected: bytes | None = reference_encoders.encode(char, name, "fatal")
        except ValueError:
            expected = None
        if expected is None:
            with pytest.raises(UnicodeEncodeError) as info:
                encode("ab" + char + "c", name, "fatal")
            assert (info.value.start, info.value.end) == (2, 3)
        else:
            assert encode(char, name, "fatal") == expected
    assert len(table) == 0x10000


@pytest.mark.parametrize("name", sorted(CJK_INDEX))
def test_every_index_pointer(name: str, encoder: str) -> None:
    """Each pointer the encoder uses round-trips; an excluded one is never written."""
    index = reference.load_index(CJK_INDEX[name])
    enc = BY_NAME[name]
    written = 0
    for pointer, char in enumerate(index):
        if char == "\x00":
            continue
        try:
            data = encode(char, name, "fatal")
        except UnicodeEncodeError:
            # Only where the spec excludes the pointer (and the code point has no other).
            assert name in ("Big5", "Shift_JIS", "GBK", "gb18030"), (pointer, char)
            if name == "Big5":
                assert pointer < (0xA1 - 0x81) * 157
            elif name == "Shift_JIS":
                assert 8272 <= pointer <= 8835
            else:
                assert char == "\ue5e5"
            continue
        assert decode(data, enc) == char, (pointer, char, data)
        assert data == reference_encoders.encode(char, name, "fatal")
        written += 1
    assert written > 0.9 * sum(c != "\x00" for c in index) or name == "Big5"


def test_big5_excluded_range_and_last_pointers() -> None:
    index = reference.load_index("index_big5_data")
    hkscs_only = [
        c for p, c in enumerate(index[: (0xA1 - 0x81) * 157]) if c != "\x00" and c not in
        index[(0xA1 - 0x81) * 157 :]
    ]
    assert len(hkscs_only) > 1000
    for char in hkscs_only[:200]:
        assert encode(char, "Big5") == f"&#{ord(char)};".encode()
    for cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        pointer = index.rindex(chr(cp))
        assert index.index(chr(cp), (0xA1 - 0x81) * 157) != pointer  # it has two pointers
        lead, trail = divmod(pointer, 157)
        expected = bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)))
        assert encode(chr(cp), "Big5") == expected


def test_shift_jis_excluded_pointers_use_the_ibm_rows() -> None:
    index = reference.load_index("index_jis0208_data")
    nec_ibm = [c for c in index[8272:8836] if c != "\x00"]
    assert nec_ibm
    for char in nec_ibm:
        data = encode(char, "Shift_JIS")
        assert data[:1] >= b"\xfa" or data.startswith(b"\x81") or data.startswith(b"\x87"), (
            char,
            data,
        )
        assert decode(data, "Shift_JIS") == char


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("EUC-JP", "\uff5e", b"\xa1\xc1"),
        ("Big5", "\uff5e", b"\xa1\xe3"),
        ("Shift_JIS", "\uff5e", b"\x81\x60"),
        ("Shift_JIS", "\u00a5\u203e\u2212\uff71\x80", b"\x5c\x7e\x81\x7c\xb1\x80"),
        ("EUC-JP", "\u00a5\u203e\u2212\uff71", b"\x5c\x7e\xa1\xdd\x8e\xb1"),
        ("EUC-JP", "\u02d8\u4e02", b"&#728;&#19970;"),  # JIS X 0212 only: never encoded
        ("GBK", "\u20ac\U00020000", b"\x80&#131072;"),
        (
            "gb18030",
            "\u20ac\U00010000\ue5e5\ue7c7",
            b"\xa2\xe3\x90\x30\x81\x30&#58853;\x81\x35\xf4\x37",
        ),
        ("ISO-2022-JP", "a\u00a5b\\\u3042\uff71z", b"a\x1b(J\\b\x1b(B\\\x1b$B$\"%\"\x1b(Bz"),
        ("ISO-2022-JP", "\u3042\u00e9", b"\x1b$B$\"\x1b(B&#233;"),
        ("ISO-2022-JP", "\u00a5\x1b\u00e9", b"\x1b(J\\&#65533;&#233;\x1b(B"),
        ("ISO-2022-JP", "\u3042\x0e", b"\x1b$B$\"\x1b(B&#65533;"),
        ("windows-1252", "\u20ac\u0100\ud800", b"\x80&#256;&#65533;"),
        ("x-user-defined", "\uf780\uf7ff\x80", b"\x80\xff&#128;"),
        ("UTF-8", "\u00e9\ud800", b"\xc3\xa9\xef\xbf\xbd"),
    ],
)
def test_spec_rules(name: str, text: str, expected: bytes, encoder: str) -> None:
    assert encode(text, name) == expected
    if name not in ("UTF-8",):
        assert reference_encoders.encode(text, name) == expected


def test_gb18030_private_use_code_points_take_their_2005_bytes(encoder: str) -> None:
    # The spec's table: each PUA code point as the two bytes GB18030-2005 (and Python's
    # codec) gives it, although those bytes now decode to a GB18030-2022 character.
    assert len(encoders.GB18030_PUA_BYTES) == 18
    for cp, data in encoders.GB18030_PUA_BYTES.items():
        assert data.decode("gb18030") == chr(cp)  # Python's codec is GB18030-2005
        assert decode(data, "gb18030") != chr(cp)
        for name in ("gb18030", "GBK"):
            assert encode(chr(cp), name, "fatal") == data


def test_output_encoding() -> None:
    assert output_encoding("replacement").name == "UTF-8"
    assert output_encoding("utf-16le").name == "UTF-8"
    assert output_encoding("UTF-16BE").name == "UTF-8"
    assert output_encoding("sjis").name == "Shift_JIS"
    with pytest.raises(ValueError):
        encode("x", "replacement")


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        encode(b"x", "utf-8")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        encode("x", "utf-8", "strict")  # type: ignore[arg-type]
    with pytest.raises(LookupError):
        encode("x", "no-such-label")


def test_long_inputs_grow_the_output(encoder: str) -> None:
    text = ("\U0002000b\u00e9\u3042" * 2000) + "x"
    for name in LEGACY:
        assert encode(text, name) == encode_python(text, name)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2FFFF), max_size=40))
def test_random_text_compiled_python_and_spec_agree(text: str) -> None:
    for name in LEGACY:
        expected = reference_encoders.encode(text, name)
        assert encode_python(text, name) == expected, name
        assert encode(text, name) == expected, name
