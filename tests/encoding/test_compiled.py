"""The compiled CJK decoders (``_speedups.c``) against the reference and the Python paths.

The shared sweeps in this directory run on both back ends (the ``cjk_backend`` fixture); the
tests here add what only matters for the compiled code: long and dense-error inputs, every
output width (written in one pass as 2-byte characters, or counted and written again), the
cut points it finds for streaming, and its argument checks.
"""

from __future__ import annotations

import os
import platform
import random
import sys
from typing import Any

import pytest

from scrapy_charset.encoding import cjk, reference
from scrapy_charset.encoding.fast import charmap_table
from scrapy_charset.encoding.labels import BY_NAME

TABLE_ENCODINGS = ["GBK", "gb18030", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR"]

needs_compiled = pytest.mark.skipif(
    cjk.compiled is None, reason="built without the compiled decoders"
)


def test_built_where_required() -> None:
    # CI builds with SCRAPY_CHARSET_REQUIRE_EXTENSION=1: the compiled path must be the one tested.
    if os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") != "1":
        pytest.skip("the compiled decoders are optional outside CI")
    assert cjk.compiled is not None


def _noise(seed: str, size: int, bias: bytes) -> bytes:
    rng = random.Random(seed)
    return bytes(
        rng.choice(bias) if rng.random() < 0.5 else rng.randrange(256) for _ in range(size)
    )


@needs_compiled
@pytest.mark.parametrize("name", TABLE_ENCODINGS)
def test_random_bytes_equal_the_python_unit_path(name: str) -> None:
    decoder = cjk.table_decoder(name)
    for seed, bias in enumerate(
        [b"\x81\x30\xa1\x8e\x8f\xfe", b"\x00\x7f\x80\xa0\xff", b"\xe0\xfc"]
    ):
        data = _noise(f"{name}-{seed}", 200_000, bias)
        assert decoder.decode(data) == decoder.decode_units(data)


@needs_compiled
def test_iso_2022_jp_random_input_equals_the_python_segment_path() -> None:
    encoding = BY_NAME["ISO-2022-JP"]
    pieces = [b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b", b"\x1b$", b"\x1b("]
    pieces += [b"\x0e", b"\x0f", b"\\~", b"\x80", b"\xff", b"0!", b"FF", b"\x21\x21", b"\x7e"]
    rng = random.Random(3)
    for _ in range(300):
        data = b"".join(
            rng.choice(pieces) if rng.random() < 0.3 else bytes([rng.randrange(0x21, 0x7F)])
            for _ in range(rng.randrange(1, 400))
        )
        assert cjk.decode(data, encoding) == cjk.decode_iso_2022_jp(data)[0], data


@needs_compiled
@pytest.mark.parametrize("name", [*TABLE_ENCODINGS, "ISO-2022-JP"])
def test_short_random_inputs_equal_the_reference(name: str) -> None:
    encoding = BY_NAME[name]
    rng = random.Random(name)
    interesting = [0x00, 0x30, 0x39, 0x41, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0xA1, 0xDF, 0xFE, 0xFF]
    interesting += [0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x21, 0x5C, 0x7E]
    for _ in range(5000):
        data = bytes(
            rng.choice(interesting) if rng.random() < 0.6 else rng.randrange(256)
            for _ in range(rng.randrange(1, 10))
        )
        assert cjk.decode(data, encoding) == reference.decode_without_bom(data, encoding), (
            data.hex()
        )


@needs_compiled
def test_every_jis0212_three_byte_input() -> None:
    encoding = BY_NAME["EUC-JP"]
    decoder = cjk.table_decoder("EUC-JP")
    wrong = [
        data.hex()
        for lead in range(0xA0, 0x100)
        for trail in range(256)
        for data in (bytes([0x8F, lead, trail]),)
        if decoder.decode(data) != reference.decode_without_bom(data, encoding)
    ]
    assert not wrong, wrong[:10]


@needs_compiled
def test_gb18030_four_byte_structure() -> None:
    # Every third byte, and every fourth byte after two third bytes, behind two first bytes.
    encoding = BY_NAME["gb18030"]
    decoder = cjk.table_decoder("gb18030")
    inputs = [
        bytes([first, 0x39, third, 0x30]) for first in (0x81, 0xE3, 0xFE) for third in range(256)
    ]
    inputs += [
        bytes([0x84, 0x31, third, fourth]) for third in (0x81, 0xA4, 0xFE) for fourth in range(256)
    ]
    inputs += [data[:3] for data in inputs] + [data + b"A" for data in inputs]
    wrong = [
        data.hex()
        for data in inputs
        if decoder.decode(data) != reference.decode_without_bom(data, encoding)
    ]
    assert not wrong, wrong[:10]


@needs_compiled
@pytest.mark.parametrize(
    "text", ["plain ascii", "caf\u00e9 \u00ff", "\u65e5\u672c\u8a9e", "\U00020000 \u20ac"]
)
def test_every_output_width(text: str) -> None:
    # ASCII-only output is one byte per character, CJK two, a supplementary character four.
    data = text.encode("gb18030")
    assert cjk.table_decoder("gb18030").decode(data) == text


@needs_compiled
@pytest.mark.parametrize("name", ["gb18030", "Big5"])
def test_characters_beyond_u_ffff_anywhere(name: str) -> None:
    # The 2-byte output goes on in 4-byte characters from the unit that needs them: before,
    # at and after it, text, errors and ASCII-only runs come out as the reference's.
    encoding = BY_NAME[name]
    decoder = cjk.table_decoder(name)
    pieces = [_beyond_u_ffff(name)]
    pieces += [b"ascii ", "\u65e5\u672c".encode(encoding.python_codec), b"\xff", b"\x81", b"\xa1"]
    pieces += [b"\x81\x30", b"\x84\x31\xa4", b"\x88\x62", b"\x88\x64"]
    rng = random.Random(f"wide-{name}")
    for size in (1, 2, 3, 10, 100, 5000):
        for _ in range(40):
            data = b"".join(rng.choice(pieces) for _ in range(size))
            expected = reference.decode_without_bom(data, encoding)
            text = decoder.decode(data)
            assert text == expected, data.hex()
            # The string has its narrowest kind, as every str built by Python does.
            assert text.encode("utf-32-le").decode("utf-32-le") == text


def _beyond_u_ffff(name: str) -> bytes:
    """Two characters beyond U+FFFF in ``name``, from its index."""
    if name == "gb18030":
        return "\U00020000\U0010FFFF".encode("gb18030")
    index = reference.load_index("index_big5_data")
    pointers = [p for p, char in enumerate(index) if ord(char) > 0xFFFF][:2]
    out = b""
    for pointer in pointers:
        lead, offset = divmod(pointer, 157)
        out += bytes([lead + 0x81, offset + (0x40 if offset < 0x3F else 0x62)])
    return out


@needs_compiled
def test_argument_errors_are_clear() -> None:
    assert cjk.compiled is not None
    with pytest.raises(TypeError):
        cjk.compiled.decode(b"\x8f\xa1\xa1", cjk.compiled.EUC_JP, "")  # no JIS X 0212 index
    with pytest.raises(TypeError):
        cjk.compiled.decode(b"\x81\x30\x81\x30", cjk.compiled.GB18030, "", "\x00")
    with pytest.raises(ValueError):
        cjk.compiled.decode(b"a", 99, "")
    with pytest.raises(TypeError):
        cjk.compiled.decode("text", cjk.compiled.BIG5, "")  # type: ignore[arg-type]


@needs_compiled
@pytest.mark.parametrize("name", TABLE_ENCODINGS)
def test_boundary_is_the_reference_last_cut(name: str) -> None:
    encoding = BY_NAME[name]
    decoder = cjk.table_decoder(name)
    rng = random.Random(f"boundary-{name}")
    for size in (1, 2, 5, 9, 12, 40, 300):
        for _ in range(60):
            data = bytes(rng.choice(b"\x81\x30\xa1\x8f\x8e\x41\xfe\xff") for _ in range(size))
            limit = max(0, len(data) - 8)
            cut = decoder.boundary(data, limit)
            assert cut == reference.last_cut(data, encoding, limit), data.hex()
            assert decoder.decode(data[:cut]) + decoder.decode(data[cut:]) == decoder.decode(data)


LATIN1 = bytes([*range(0x80), *range(0xA0, 0x100)])


def _latin1_block_inputs() -> list[bytes]:
    """Where a table maps every byte but 0x80-0x9F to itself (windows-1252), a block of 64
    bytes without those is copied as it is: inputs around such blocks."""
    rng = random.Random("latin1-blocks")
    inputs = []
    # Blocks of Latin-1 bytes (ASCII or not), after every length of leading ASCII run and a
    # first non-ASCII byte, then a byte 0x80-0x9F (looked up; in windows-1252 beyond U+00FF
    # or not) at every place of a later block, or a character of each width after them.
    for lead in (0, 1, 7, 8, 9, 63, 64, 65):
        for blocks in (1, 2, 3):
            body = bytes(rng.choice(LATIN1) for _ in range(64 * blocks))
            for first in (b"\xe9", b"\xa0", b"\x80", b"\x81"):
                start = b"a" * lead + first
                inputs.append(start + body)
                inputs.append(start + body + b"z" * rng.randrange(64))
                for byte in (0x80, 0x81, 0x8D, 0x9F, 0xA0, 0xFF, 0x41):
                    for at in (0, 1, 31, 62, 63, 64, 65, 100, 127):
                        inputs.append(start + body[:at] + bytes([byte]) + body[at:])
    # Latin-1 text blocks only after ASCII blocks (the string must stay of the 1-byte kind,
    # and of the ASCII kind where no byte beyond 0x7F is left).
    inputs.append(b"a" * 200 + b"\xe9" * 64 + b"b" * 100)
    inputs.append(b"a" * 200 + b"\xa0" + b"b" * 300)
    inputs.append(b"\xe9" * 640)
    # Long mixed input: Latin-1 text with a few windows-1252 signs, and random bytes.
    for _ in range(50):
        text = bytearray(rng.choice(LATIN1) for _ in range(rng.randrange(1, 2000)))
        for _ in range(rng.randrange(0, 4)):
            text[rng.randrange(len(text))] = rng.randrange(0x80, 0xA0)
        inputs.append(bytes(text))
        inputs.append(rng.randbytes(rng.randrange(1, 2000)))
    return inputs


@needs_compiled
@pytest.mark.parametrize(
    "name",
    ["windows-1252", "windows-1251", "ISO-8859-2", "x-user-defined", "windows-1254",
     "ISO-8859-15", "macintosh"],
)  # fmt: skip
def test_single_byte_table_decoder(name: str) -> None:
    # Every byte in every position, ASCII-only and Latin-1-only input (narrowest string kind).
    assert cjk.compiled is not None
    table = charmap_table(name)
    encoding = BY_NAME[name]
    rng = random.Random(name)
    inputs = [b"", b"ascii only", bytes(range(256)), bytes(range(0xA0, 0x100)) * 3]
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) for _ in range(200)]
    # The output's width is decided by blocks of 64 bytes: the first character beyond U+00FF
    # (or beyond U+007F) at and around block edges, after ASCII and after Latin-1 text.
    for byte in range(0x80, 0x100):
        for before in (b"a", b"\xe9"):
            inputs += [before * at + bytes([byte]) + b"z" * 3 for at in (0, 62, 63, 64, 65, 128)]
    # A leading ASCII run is found eight bytes at a time and copied: it ends at every offset
    # of the 8-byte words, with any non-ASCII byte (whatever the width it gives) or none.
    for byte in (0x80, 0x9F, 0xA0, 0xC0, 0xE9, 0xFF):
        inputs += [(b"<p>\x7f" * 5)[:at] + bytes([byte]) for at in range(20)]
        inputs += [b"a" * at + bytes([byte]) + b"a" * 9 for at in range(20)]
    inputs += [b"\x00" * at for at in range(20)]
    # After the first non-ASCII byte, a block of 64 ASCII bytes is copied as it is and the
    # others are looked up: ASCII runs across every alignment of the blocks, then a byte of
    # each width (in windows-1252 0x80 is beyond U+00FF), written after the copied blocks or
    # widening them.
    for lead in range(9):
        for run in (63, 64, 65, 127, 128, 129, 200):
            for byte in (0x80, 0xE9, 0xFF):
                inputs.append(b"a" * lead + b"\xe9" + b"b" * run + bytes([byte]) + b"c" * 70)
    inputs += _latin1_block_inputs()
    for data in inputs:
        expected = reference.decode_without_bom(data, encoding)
        text = cjk.compiled.decode_single_byte(data, table)
        # Equal strings of another width compare unequal: this also checks the narrowest width.
        assert text == expected and sys.getsizeof(text) == sys.getsizeof(expected), data.hex()
    # A table that does not map ASCII to itself is looked up for ASCII bytes too.
    shifted = table[1:128] + table[0] + table[128:]
    for data in inputs[:50] + [b"ascii only, longer than a word", b"a" * 17, b"a" * 130]:
        text = cjk.compiled.decode_single_byte(data, shifted)
        expected = data.decode("latin-1").translate(dict(enumerate(shifted)))
        assert text == expected and sys.getsizeof(text) == sys.getsizeof(expected), data.hex()
    with pytest.raises(ValueError):
        cjk.compiled.decode_single_byte(b"a", "short table")
    with pytest.raises(ValueError):
        cjk.compiled.decode_single_byte(b"a", "\U00010000" * 256)


@needs_compiled
def test_holds_word_is_a_case_insensitive_search_of_the_prefix() -> None:
    # Bytes whose 0x20 bit makes them look like the letters (0xC3 | 0x20 == 0xE3, "@" | 0x20
    # == "`") must not count; every letter case, every end, words at every offset and across
    # the 8-byte blocks the compiled search tests at once.
    compiled = cjk.compiled
    assert compiled is not None
    rng = random.Random("holds_word")
    alphabet = b"cChHaArRsSeEtT@`\xc3\xe3\x83<>=x "
    for _ in range(20_000):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        if rng.random() < 0.3:
            at = rng.randrange(len(data) + 1)
            word = bytes(rng.choice((b, b - 32)) for b in b"charset")
            data = data[:at] + word + data[at:]
        end = rng.randrange(0, len(data) + 10)
        for word in (b"charset", b"encoding", b"c"):
            assert compiled.holds_word(data, word, end) == (word in data[:end].lower())
    with pytest.raises(ValueError):
        compiled.holds_word(b"CHARSET", b"Charset", 10)


@needs_compiled
def test_holds_any_is_a_search_for_any_of_the_strings() -> None:
    # Strings of one to four bytes (the middleware's: single bytes and CJK sequences), sharing
    # first bytes and pairs, at every offset, at the very end, cut short by the end, and the
    # strings the middleware searches GBK, Big5, EUC-JP and ISO-2022-JP bodies for.
    from scrapy_charset.encoding import lookup
    from scrapy_charset.encoding.fast import _holds_any
    from scrapy_charset.integration.middleware import _inexact_sequences

    compiled = cjk.compiled
    assert compiled is not None
    rng = random.Random("holds_any")
    alphabet = b"\x81\xa1\xa3\xfe5\xf47AEY~\x00\xff"
    sets = [
        tuple(bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 5)))
              for _ in range(rng.randrange(0, 25)))
        for _ in range(200)
    ]
    sets += [_inexact_sequences(lookup(name))
             for name in ("gbk", "big5", "euc-jp", "iso-2022-jp", "shift_jis")]
    for _ in range(20_000):
        strings = rng.choice(sets)
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        if strings and rng.random() < 0.3:
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice(strings)[: rng.randrange(1, 5)] + data[at:]
        expected = any(string in data for string in strings)
        assert compiled.holds_any(data, strings) == expected, (data, strings)
        assert _holds_any(data, strings) == expected
        assert compiled.holds_any(memoryview(data), strings) == expected
    # The search looks only at places holding a string's first byte: sixteen at a time for up
    # to eight first bytes, or by the high bits where every first byte is above 0x7F (the
    # single bytes two single-byte tables differ on), else byte by byte. Longer inputs than
    # above, strings at every offset across the blocks, and a pair straddling a block edge.
    high = tuple(bytes([b]) for b in range(0x80, 0xA0)) + (b"\xa1\xa2",)
    mixed = tuple(bytes([b]) for b in b"!#%&'()*+,") + (b"\x81\x40",)
    few = (b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d")
    background = b"<p class=x>caf\xe9 tr\xe8s \xa0\xff\x7f\x00</p>"
    for strings in (high, mixed, few, (b'"', b"!!"), (b"\xa1\xa2\xa3",)):
        plain = bytes(b for b in background * 4 if not any(bytes([b]) in s for s in strings))
        assert not compiled.holds_any(plain, strings)
        for at in range(len(plain)):
            for string in strings[:3] + strings[-1:]:
                data = plain[:at] + string + plain[at:]
                expected = any(s in data for s in strings)
                assert compiled.holds_any(data, strings) == expected, (data, strings)
    with pytest.raises(TypeError):
        compiled.holds_any(b"abc", (b"",))
    with pytest.raises(TypeError):
        compiled.holds_any(b"abc", [b"a"])


@needs_compiled
def test_holds_word_finds_words_after_every_shift() -> None:
    # Horspool's search moves by the byte under the window's end: long inputs of the words'
    # own letters (every shift), near-misses, and the word at every offset up to the end.
    compiled = cjk.compiled
    assert compiled is not None
    rng = random.Random("holds_word shifts")
    for word in (b"charset", b"encoding", b"ab", b"aaa", b"x"):
        letters = word + word.upper() + b"<=> \x00\xff@[`{"
        for _ in range(3_000):
            data = bytearray(rng.choice(letters) for _ in range(rng.randrange(0, 120)))
            if rng.random() < 0.5:
                at = rng.randrange(len(data) + 1)
                data[at:at] = bytes(rng.choice((b, b - 32)) for b in word)
            data = bytes(data)
            end = rng.randrange(0, len(data) + 3)
            assert compiled.holds_word(data, word, end) == (word in data[:end].lower())
            assert compiled.holds_word(memoryview(data), word, end) == (word in data[:end].lower())


# -- UTF-16 (utf16_decode: a copy of the units where none is a surrogate, else the steps) ----

UTF16 = [("UTF-16LE", "utf-16-le", False), ("UTF-16BE", "utf-16-be", True)]


def _utf16_equal(data: bytes, codec: str, big_endian: bool) -> None:
    assert cjk.compiled is not None
    text = cjk.compiled.utf16_decode(data, big_endian)
    expected = data.decode(codec, "replace")  # exact for UTF-16 (test_python_codec_exact)
    # Equal strings of CPython have the same kind: the narrowest holding their characters.
    assert text == expected, data.hex()
    assert sys.getsizeof(text) == sys.getsizeof(expected)


@needs_compiled
@pytest.mark.parametrize(("name", "codec", "big_endian"), UTF16)
def test_utf16_every_unit_alone_and_after_a_leading_surrogate(
    name: str, codec: str, big_endian: bool
) -> None:
    order = "big" if big_endian else "little"
    for unit in range(0x10000):
        pair = unit.to_bytes(2, order)
        _utf16_equal(pair, codec, big_endian)
        _utf16_equal(pair + b"A", codec, big_endian)  # an odd last byte
        _utf16_equal((0xD83D).to_bytes(2, order) + pair, codec, big_endian)
        _utf16_equal(b"\x41\x00" * 20 + pair + b"\x42\x00" * 20, codec, big_endian)
    for unit in (0x41, 0xE9, 0x4E2D, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFD, 0xFFFF):
        data = unit.to_bytes(2, order) * 5 + b"\x00"
        assert cjk.compiled is not None
        assert cjk.compiled.utf16_decode(data, big_endian) == reference.decode_without_bom(
            data, BY_NAME[name]
        )


@needs_compiled
@pytest.mark.parametrize(("name", "codec", "big_endian"), UTF16)
def test_utf16_a_wider_character_surrogate_or_odd_byte_at_every_place(
    name: str, codec: str, big_endian: bool
) -> None:
    # The compiled pass reads 16 or 32 bytes at a time: what changes the outcome (a character
    # needing a wider str, a surrogate, a pair, an odd last byte) is put in every lane of
    # every block and in the tail, in texts of every width.
    for base in ("a" * 70, "é" * 70, "中" * 70):
        for length in (0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 70):
            text = base[:length]
            for odd in (b"", b"\x00"):
                _utf16_equal(text.encode(codec) + odd, codec, big_endian)
            for at in range(length + 1):
                for inserted in ("é", "Ā", "中", "😀"):
                    wider = text[:at] + inserted + text[at:]
                    _utf16_equal(wider.encode(codec), codec, big_endian)
                for unit in (0xD800, 0xDBFF, 0xDC00, 0xDFFF):
                    raw = text.encode(codec)
                    lone = unit.to_bytes(2, "big" if big_endian else "little")
                    _utf16_equal(raw[: 2 * at] + lone + raw[2 * at :], codec, big_endian)


@needs_compiled
@pytest.mark.parametrize(("name", "codec", "big_endian"), UTF16)
def test_utf16_random_bytes_and_texts(name: str, codec: str, big_endian: bool) -> None:
    rng = random.Random(name)
    _utf16_equal(_noise(name, 200_001, b"\x00\xd8\xdc\xff"), codec, big_endian)
    for _ in range(2_000):
        text = "".join(
            chr(rng.choice([rng.randrange(0x80), rng.randrange(0x800), rng.randrange(0x110000)]))
            for _ in range(rng.randrange(40))
        )
        raw = text.encode(codec, "surrogatepass")  # lone surrogates too
        _utf16_equal(raw[: rng.randrange(len(raw) + 1)], codec, big_endian)
    assert cjk.compiled is not None
    data = "Grüße, 世界".encode(codec)
    for buffer in (bytearray(data), memoryview(data)):
        assert cjk.compiled.utf16_decode(buffer, big_endian) == "Grüße, 世界"
    with pytest.raises(TypeError):
        cjk.compiled.utf16_decode(data)  # type: ignore[call-arg]


@pytest.mark.parametrize(("name", "codec", "big_endian"), UTF16)
def test_utf16_without_the_compiled_module(
    name: str, codec: str, big_endian: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scrapy_charset.encoding import decode, fast

    data = "Grüße \ud83d\ude00 世界".encode(codec, "surrogatepass") + b"\x00\xd8\x41"
    expected = decode(data, name, bom="keep")
    monkeypatch.setattr(fast, "compiled", None)
    for buffer in (data, memoryview(data)):
        assert fast.decode_utf16(buffer, big_endian) == expected == data.decode(codec, "replace")
    bom = b"\xfe\xff" if big_endian else b"\xff\xfe"
    assert decode(bom + data, "windows-1252") == expected


@pytest.mark.parametrize("compiled", [True, False])
def test_decode_utf8_from_is_cpythons_decoder_from_start(compiled: bool) -> None:
    # ASCII across the 16-byte blocks, the two-byte characters of U+0080-U+00FF written as
    # they come, and errors early or late (the error path after the text so far): every
    # other character (2, 3 and 4 bytes), lone and cut sequences, overlong forms, surrogates,
    # bytes that are never UTF-8; every start, negative and past the end; the same text and
    # the same kind of string (all ASCII or not).
    from scrapy_charset.encoding.fast import _decode_utf8_from, decode_utf8_from

    if compiled and cjk.compiled is None:
        pytest.skip("built without the compiled decoders")
    decode = decode_utf8_from if compiled else _decode_utf8_from

    def check(data: bytes, start: int) -> None:
        expected = bytes(data[max(start, 0) :]).decode("utf-8", "replace")
        text = decode(data, start)
        assert (text, text.isascii()) == (expected, expected.isascii()), (data, start)

    pieces = [b"a", b"<p>", b"x" * 17, b"y" * 40, b"\xc3\xa9", b"\xc2\xa0", b"\xc3\xbf",
              b"\xc2", b"\xc3", b"\x80", b"\xbf", b"\xc4\x80", b"\xd0\x96", b"\xe2\x80\x9c",
              b"\xf0\x9f\x98\x80", b"\xff", b"\xc1\xbf", b"\xed\xa0\x80", b"\xe0\x80",
              b"\xef\xbb\xbf"]  # fmt: skip
    rng = random.Random("decode_utf8_from")
    for _ in range(20_000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        check(data, rng.randrange(-2, len(data) + 3))
    for pair in range(0x10000):
        for before, after in ((b"", b""), (b"x" * 15, b"y"), (b"\xc3\xa9" * 3, b"z" * 40)):
            check(before + pair.to_bytes(2, "big") + after, 0)
    page = ("<p>Voilà un café très élégant, à côté de la forêt.</p>" * 300).encode()
    for text in ("", "“quoted”", "Привет", "日本", "\U0001f600"):
        for at in (0, 100, len(page) // 2, len(page) - 10, len(page)):
            data = b"\xef\xbb\xbf" + page[:at] + text.encode() + page[at:]
            check(data, 3)
            check(data.replace("é".encode(), b"e").replace("à".encode(), b"a"), 3)
    check(bytearray(b"\xef\xbb\xbfcaf\xc3\xa9"), 3)  # type: ignore[arg-type]
    check(memoryview(b"\xef\xbb\xbfcaf\xc3\xa9"), 3)  # type: ignore[arg-type]


# -- UTF-8 (decode_utf8_from: the length and widest character, then the characters written) --


def _utf8_equal(data: bytes) -> None:
    from scrapy_charset.encoding.fast import decode_utf8_from

    expected = data.decode("utf-8", "replace")  # the spec's decoder (test_python_codec_exact)
    text = decode_utf8_from(data, 0)
    # Equal strings of CPython have the same kind: the narrowest holding their characters.
    assert text == expected, data.hex()
    assert sys.getsizeof(text) == sys.getsizeof(expected), data.hex()


# One of every kind of sequence: each width of character (and of str: Latin-1, 2 and 4
# bytes), the edges of the second byte's range after E0, ED, F0 and F4, and errors: a lone
# continuation byte, overlong forms, a surrogate, beyond U+10FFFF, bytes never in UTF-8.
UTF8_PIECES = [
    "é".encode(), "ÿ".encode(), "Ā".encode(), "߿".encode(), "ࠀ".encode(), "“".encode(),
    "€".encode(), "中".encode(), "\ufffd".encode(), "\uffff".encode(), "\U00010000".encode(),
    "😀".encode(), "\U0010ffff".encode(), b"\xed\x9f\xbf", b"\xee\x80\x80",
    b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\xdf", b"\xe0\x80\x80",
    b"\xe0\x9f\xbf", b"\xe0\xa0", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xef\xbf",
    b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80", b"\xf4\x90\x80\x80",
    b"\xf4\x8f\xbf", b"\xf5\x80\x80\x80", b"\xf8", b"\xfe", b"\xff",
]  # fmt: skip


@needs_compiled
def test_utf8_every_sequence_at_every_lane_and_across_blocks() -> None:
    # The compiled passes read 64 and 16 bytes at a time: each piece at every place of texts
    # of every width, from inside the first block to past several (and their tails), alone,
    # twice, and cut short at the end.
    for base in ("a" * 140, "é" * 70, "中" * 50, "😀" * 35, "aé中😀" * 14):
        raw = base.encode()
        for length in (*range(0, 72), 79, 80, 81, 127, 128, 129, 140):
            text = raw[:length]
            _utf8_equal(text)
            for at in range(length + 1):
                for piece in UTF8_PIECES:
                    _utf8_equal(text[:at] + piece + text[at:])
                    if at % 7 == 0:
                        _utf8_equal(text[:at] + piece * 2 + text[at:])
                        _utf8_equal(text[:at] + piece[:-1])


@needs_compiled
@pytest.mark.parametrize("blocks", [True, False])
def test_utf8_text_in_blocks_and_byte_by_byte(blocks: bool) -> None:
    # ASCII, two- and three-byte sequences into a 2-byte str, and ASCII and U+0080-U+00FF into
    # a 1-byte one: sixteen bytes at a time where the CPU has SSSE3 (use_utf8_blocks), else
    # byte by byte; the same text either way. Every piece at every place of such texts cut at
    # every length: a block with a lead as its last byte or last but one, continuation bytes
    # first, a lone lead, C0/C1, a lead beyond C3 in Latin-1 text, an overlong form or a
    # surrogate after E0/ED, a four-byte sequence or an error anywhere in it, and the last
    # sixteen characters of the str (written byte by byte).
    assert cjk.compiled is not None
    in_use = cjk.compiled.use_utf8_blocks(blocks)
    try:
        if blocks and platform.machine() in ("x86_64", "AMD64"):
            assert in_use  # (x86-64 CPUs of this century have SSSE3)
        if not blocks:
            assert not in_use
        for base in ("Жы ", "Привет, мир. ", "<a>Ωμέγα</a> ", "Ж" * 9 + "x", "ĀĀ a",
                     "Größe, Straße ", "<p>Crème brûlée à côté</p>", "é" * 9 + "x", "ÿ\xa0",
                     "吾輩は猫である。", "価格は123円、Wi-Fi ", "“Да” — и… ",
                     "\u0800\ud7ff\ue000\uffffx", "ࠀ߿ Ω한"):
            raw = (base * 12).encode()
            for length in (*range(0, 40), 63, 64, 65, 100):
                text = raw[:length]
                _utf8_equal(text)
                for at in range(length + 1):
                    for piece in UTF8_PIECES:
                        _utf8_equal(text[:at] + piece + text[at:])
        big = ("<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>\n" * 500).encode()
        _utf8_equal(big)
        _utf8_equal(big + b"\xd0")
        _utf8_equal(big[:1000] + "—".encode() + big[1000:] + "😀".encode())
        japanese = ("<p>吾輩は猫である。名前はまだ無い。Tokyo駅から5分。</p>\n" * 500).encode()
        _utf8_equal(japanese)
        _utf8_equal(japanese + b"\xe3\x81")
        _utf8_equal(japanese[:1001] + b"\xed\xa0\x80" + japanese[1001:])
        _utf8_equal(japanese[:1002] + "😀".encode() + japanese[1002:])
        french = ("<p>Voilà un café très élégant, à côté de la forêt.</p>\n" * 500).encode()
        _utf8_equal(french)
        _utf8_equal(french + b"\xc3")
        _utf8_equal(french[:999] + "Ж".encode() + french[999:])
    finally:
        cjk.compiled.use_utf8_blocks(True)


@needs_compiled
def test_utf8_latin_letters_between_ascii_runs_of_every_length() -> None:
    # The leading run of ASCII and U+0080-U+00FF: letters one after the other, and ASCII runs
    # of every length between them (shorter and longer than the eight bytes copied as a word,
    # and the sixteen of a block), then the end, another character, or an error.
    for gap in range(0, 40):
        for letters in ("é", "ÿ€", "\xa0é", "Üß"):
            for tail in (b"", "中".encode(), b"\xe9", b"\xc3", b"\x80", "😀".encode()):
                body = ("x" * gap + letters) * 9
                for cut in (0, 1, gap):
                    _utf8_equal(body[cut:].encode() + tail)
                    _utf8_equal(body.encode()[: len(body.encode()) - cut] + tail)


@needs_compiled
def test_utf8_every_lead_byte_before_every_byte() -> None:
    for lead in range(0x80, 0x100):
        for second in range(0x100):
            pair = bytes((lead, second))
            for before, after in ((b"", b""), (b"x" * 15, b"\x80"), (b"y" * 63, b"\x80\xbf")):
                _utf8_equal(before + pair + after)
            if lead >= 0xE0:
                for third in (0x41, 0x7F, 0x80, 0xBF, 0xC0):
                    for fourth in (b"", b"\x80", b"\xbf", b"A"):
                        _utf8_equal(b"z" * 30 + pair + bytes((third,)) + fourth + b"w" * 20)


@needs_compiled
def test_utf8_random_bytes_and_texts_with_errors() -> None:
    rng = random.Random("utf8")
    _utf8_equal(_noise("utf8", 200_001, b"\x80\xbf\xc3\xe2\xf0"))
    alphabets = [(0x20, 0x7F), (0x80, 0x100), (0x100, 0x800), (0x800, 0xD800), (0xE000, 0x10000),
                 (0x10000, 0x110000)]  # fmt: skip
    for _ in range(3_000):
        chosen = rng.sample(alphabets, rng.randrange(1, 4))
        text = "".join(chr(rng.randrange(*rng.choice(chosen))) for _ in range(rng.randrange(200)))
        raw = bytearray(text.encode())
        _utf8_equal(bytes(raw))
        for _ in range(rng.randrange(4)):
            at = rng.randrange(len(raw) + 1)
            raw[at:at] = rng.choice([bytes((rng.randrange(0x80, 0x100),)), *UTF8_PIECES])
        _utf8_equal(bytes(raw))
        _utf8_equal(bytes(raw[: rng.randrange(len(raw) + 1)]))
    assert cjk.compiled is not None
    data = "Grüße, 世界 😀".encode()
    for buffer in (bytearray(data), memoryview(data), memoryview(b"ab" + data)[2:]):
        assert cjk.compiled.decode_utf8_from(buffer, 0) == "Grüße, 世界 😀"
    assert cjk.compiled.decode_utf8_from(b"", 0) == ""
    with pytest.raises(TypeError):
        cjk.compiled.decode_utf8_from(data)  # type: ignore[call-arg]


@needs_compiled
@pytest.mark.parametrize("codec", ["cp1252", "cp1251", "cp1250", "koi8_r", "cp932", "gbk"])
def test_utf8_legacy_text_declared_utf8(codec: str) -> None:
    # A page in a legacy encoding served as UTF-8: an invalid sequence every few letters,
    # each at every offset from a 16-byte block's start (the byte-by-byte loop takes those
    # bytes, blocks the valid runs between them).
    text = {
        "cp1252": "Le château où l'été était déjà célèbre — «ça» coûte 5 €. ",
        "cp1251": "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
        "cp1250": "Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń. ",
        "koi8_r": "В чащах юга жил бы цитрус? Да, но фальшивый экземпляр! ",
        "cp932": "日本語のテキスト「カタカナ」と、ひらがな。 ",
        "gbk": "中文的文字，简体字。汉字和标点符号。 ",
    }[codec]
    for valid in ("", "é" * 8, "中" * 6, "x" * 16):
        for shift in range(17):
            data = ("a" * shift + valid).encode() + (text * 20).encode(codec)
            _utf8_equal(data)
            _utf8_equal(data + valid.encode() + (text * 3).encode(codec))


@needs_compiled
@pytest.mark.parametrize("blocks", [True, False])
def test_utf8_a_run_cut_short_every_few_letters(blocks: bool) -> None:
    # Runs of 1 to 40 letters of each width, each followed by an invalid sequence or by a
    # character the block writer does not take (a wider one, or 4 bytes): a block is written
    # up to the sequence before the one it stops at, and a block that stops within sixteen
    # bytes is not tried again for a while (the byte-by-byte loop goes on).
    assert cjk.compiled is not None
    enders = [b"\xe9", b"\x80", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80",
              "ж".encode(), "中".encode(), "😀".encode()]  # fmt: skip
    in_use = cjk.compiled.use_utf8_blocks(blocks)
    try:
        for letter in ("é", "ж", "中", "a"):
            for run in range(1, 41):
                for end in enders:
                    for shift in (0, 1, 5, 15):
                        piece = (letter * run).encode() + end
                        _utf8_equal(b"x" * shift + piece * (600 // len(piece) + 1))
    finally:
        cjk.compiled.use_utf8_blocks(True)
    assert in_use or not blocks or platform.machine() not in ("x86_64", "AMD64")


@needs_compiled
def test_utf8_dense_errors_read_as_cpythons_decoder_reads_them() -> None:
    # Eight invalid sequences within 1,024 bytes of the first: the input is handed to
    # CPython's decoder whole (where the rest holds no 4-byte lead); fewer, or further apart,
    # or with one (an emoji after them): the loop goes on. The same text, of the narrowest
    # kind, on both sides of each limit.
    for letter in ("a", "é", "ж", "中"):
        width = len(letter.encode())
        for gap in (*range(1, 9), *range(130 // width, 160 // width), 300 // width):
            for count in (7, 8, 9, 40):
                for error in (b"\xe9", b"\xe2\x82", b"\xf0\x9f\x98"):
                    for before in (b"", b"x" * 13, "中".encode() * 5):
                        body = before + ((letter * gap).encode() + error) * count
                        _utf8_equal(body)
                        _utf8_equal(body + "😀".encode())
                        _utf8_equal(body + (letter * 50).encode())


# -- UTF-8 errors (the compiled error path: utf8_count, then utf8_write replacing errors) ----
# Where an error is met: at the start (the leading run is empty), inside the first 16-byte block
# and across a 16- and a 64-byte block, after a run of U+0080-U+00FF (the leading run), after a
# 3-byte and a 4-byte character (the measured pass stops there: the text so far is copied into
# a wider str); and what follows it: nothing (the end), ASCII, a continuation byte, a character
# of another width.
UTF8_BEFORE = [b"", b"a" * 13, b"b" * 62, "é".encode() * 9, "中".encode() * 5 + b"c",
               "😀".encode() + b"d" * 30]  # fmt: skip
UTF8_AFTER = [b"", b"z" * 20, b"\x80", "中".encode(), "é".encode()]


@needs_compiled
def test_utf8_errors_every_lead_before_every_byte_at_every_place() -> None:
    for lead in range(0x80, 0x100):
        for second in range(0x100):
            pair = bytes((lead, second))
            for before in UTF8_BEFORE:
                for after in UTF8_AFTER:
                    _utf8_equal(before + pair + after)


@needs_compiled
def test_utf8_errors_every_third_and_fourth_byte_in_every_lane() -> None:
    # For each lead E0-F4 and second byte, every third byte: the 256 sequences back to back and
    # each followed by an ASCII byte (every lane of the 16-byte blocks), and cut at the end; for
    # F0-F4 and second and third bytes 80-BF, every fourth byte.
    for lead in range(0xE0, 0xF5):
        for second in range(0x100):
            back_to_back = b"".join(bytes((lead, second, third)) for third in range(0x100))
            spaced = b"".join(bytes((lead, second, third)) + b"x" for third in range(0x100))
            for before in UTF8_BEFORE:
                _utf8_equal(before + back_to_back)
                _utf8_equal(before + spaced)
            for third in (0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF):
                _utf8_equal(b"q" * 17 + bytes((lead, second, third)))
                _utf8_equal("中".encode() * 3 + bytes((lead, second, third)))
    for lead in range(0xF0, 0xF5):
        for second in range(0x80, 0xC0):
            for third in range(0x80, 0xC0):
                head = bytes((lead, second, third))
                spaced = b"".join(head + bytes((fourth,)) + b"y" for fourth in range(0x100))
                _utf8_equal(spaced)
                _utf8_equal("é".encode() * 7 + spaced + head)


@needs_compiled
def test_utf8_errors_cut_short_at_the_end() -> None:
    rng = random.Random("utf8 cut")
    for character in ("é", "ÿ", "Ā", "߿", "中", "\uffff", "😀", "\U0010ffff"):
        raw = character.encode()
        for before in UTF8_BEFORE:
            for cut in range(1, len(raw)):
                _utf8_equal(before + raw[:cut])
                _utf8_equal(before + raw[:cut] * 3)
                _utf8_equal(before + raw * 40 + raw[:cut])
    alphabets = [(0x20, 0x7F), (0x80, 0x800), (0x800, 0xD800), (0x10000, 0x110000)]
    for _ in range(300):
        low, high = rng.choice(alphabets)
        raw = "".join(chr(rng.randrange(low, high)) for _ in range(rng.randrange(1, 300))).encode()
        for cut in range(1, min(len(raw), 8) + 1):
            _utf8_equal(raw[:-cut])


@needs_compiled
@pytest.mark.parametrize("seed", range(3))
def test_utf8_errors_long_random_bytes(seed: int) -> None:
    # Uniform bytes (F5-FF among them: no measured pass), the same without F5-FF (the measured
    # pass, then the error path from the first error), and bytes that are mostly leads and
    # continuation bytes at the edges of their ranges.
    rng = random.Random(f"utf8 noise {seed}")
    edges = b"\x80\x8f\x90\x9f\xa0\xbf\xc0\xc2\xdf\xe0\xe1\xed\xef\xf0\xf3\xf4\xf5AZ"
    for size in (1, 2, 3, 4, 15, 16, 17, 19, 63, 64, 65, 67, 1000, 4099, 65_537, 300_001):
        data = rng.randbytes(size)
        _utf8_equal(data)
        _utf8_equal(bytes(byte % 0xF5 for byte in data))
        _utf8_equal(bytes(rng.choice(edges) for _ in range(size)))
        _utf8_equal("中".encode() + data)


@needs_compiled
def test_utf8_errors_inserted_into_long_texts() -> None:
    # Valid text of every width and mix, long enough for the passes' blocks, with one to five
    # runs of random bytes inserted anywhere (a late error copies the text so far).
    rng = random.Random("utf8 inserted")
    alphabets = [(0x20, 0x7F), (0x80, 0x100), (0x100, 0x800), (0x800, 0xD800), (0xE000, 0x10000),
                 (0x10000, 0x110000)]  # fmt: skip
    for _ in range(400):
        chosen = rng.sample(alphabets, rng.randrange(1, 4))
        length = rng.randrange(50, 3000)
        text = "".join(chr(rng.randrange(*rng.choice(chosen))) for _ in range(length))
        raw = bytearray(text.encode())
        for _ in range(rng.randrange(1, 6)):
            at = rng.randrange(len(raw) + 1)
            raw[at:at] = rng.randbytes(rng.randrange(1, 5))
        _utf8_equal(bytes(raw))


@needs_compiled
def test_utf8_errors_without_a_four_byte_lead_after_them() -> None:
    # Where no byte F0-F4 follows the first error, the rest is written into a str as long as
    # its bytes and then cut to its text: valid text of every width (astral characters only
    # before the first error) with stray bytes that are no such lead (Latin-1 letters C0-EF,
    # F5-FF, continuation bytes, cut sequences) inserted, at the start, in the middle, at the end.
    rng = random.Random("utf8 no four-byte lead")
    alphabets = [(0x20, 0x7F), (0x80, 0x100), (0x100, 0x800), (0x800, 0xD800), (0xE000, 0x10000)]
    stray = [b"\xe9", b"\xfc", b"\xff", b"\x80", b"\xbf", b"\xc3", b"\xe4\xb8", b"\xed\xa0\x80",
             b"\xc0\xaf", b"\xe0\x80\x80", b"\xf5\x80"]  # fmt: skip
    for _ in range(400):
        chosen = rng.sample(alphabets, rng.randrange(1, 4))
        length = rng.randrange(0, 3000)
        text = "".join(chr(rng.randrange(*rng.choice(chosen))) for _ in range(length))
        raw = bytearray(text.encode())
        places = [0, len(raw), rng.randrange(len(raw) + 1)]
        for at in rng.sample(places, rng.randrange(1, 4)):
            raw[at:at] = rng.choice(stray) * rng.randrange(1, 4)
        _utf8_equal(bytes(raw))
        _utf8_equal("😀".encode() + bytes(raw))  # the widest character before the error
        _utf8_equal(bytes(raw) + "😀".encode())  # a four-byte lead after it: counted first


@needs_compiled
def test_utf8_errors_from_buffers_and_after_a_bom() -> None:
    from scrapy_charset.encoding.fast import decode_utf8_from

    rng = random.Random("utf8 buffers")
    wide = ("Привет, 世界 😀 " * 50).encode() + b"\xff" + "é".encode() * 30 + b"\xe2\x82"
    cases = [b"caf\xe9 \xed\xa0\x80 \xe0\x80 \xf0\x9f\x98", rng.randbytes(5000), wide]
    for data in cases:
        expected = data.decode("utf-8", "replace")
        for buffer in (bytearray(data), memoryview(data), memoryview(b"ab" + data)[2:]):
            text = decode_utf8_from(buffer, 0)
            assert (text, sys.getsizeof(text)) == (expected, sys.getsizeof(expected))
        text = decode_utf8_from(bytearray(b"\xef\xbb\xbf" + data), 3)
        assert (text, sys.getsizeof(text)) == (expected, sys.getsizeof(expected))
    # From every start: the bytes before it (a lead, a second byte) are not read as part of the
    # text, in the first block of the counting pass or after it.
    edges = b"\x80\x90\xa0\xbf\xe0\xed\xf0\xf4\xffA"
    for _ in range(20):
        data = bytes(rng.choice(edges) for _ in range(rng.randrange(20, 90)))
        for start in range(len(data) + 1):
            expected = data[start:].decode("utf-8", "replace")
            text = decode_utf8_from(data, start)
            assert (text, sys.getsizeof(text)) == (expected, sys.getsizeof(expected)), (data, start)


def test_utf8_pages_through_decode_and_without_the_compiled_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # decode_without_bom's UTF-8 (header- and meta-declared pages) and decode after a BOM use
    # the one decoder; without the compiled module, CPython's.
    from scrapy_charset.encoding import decode, fast

    page = ("<p>Voilà “un” café, Привет, 日本語, 😀.</p>\n" * 500).encode()
    cases = [page, page + b"\xff", page[:-5], b"", b"ascii only " * 300]
    expected = [data.decode("utf-8", "replace") for data in cases]
    calls: list[int] = []
    for compiled in (True, False):
        calls.clear()
        decoder = fast.decode_utf8_from if compiled else fast._decode_utf8_from

        def counted(data: bytes, start: int, decoder: Any = decoder) -> str:
            calls.append(start)
            return decoder(data, start)  # type: ignore[no-any-return]

        monkeypatch.setattr(fast, "decode_utf8_from", counted)
        for data, text in zip(cases, expected, strict=True):
            assert fast.decode_without_bom(data, BY_NAME["UTF-8"]) == text
            assert decode(data, "utf-8") == text
            assert decode(b"\xef\xbb\xbf" + data, "windows-1252") == text
            assert fast.decode_utf8_from(bytearray(data), 0) == text
        assert calls == [0, 0, 3, 0] * len(cases)
