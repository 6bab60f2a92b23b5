"""The compiled single-byte decoder's copied blocks: where a table maps every byte but
0x80-0x9F to itself (windows-1252), a block of 64 bytes without those is copied as it is."""

from __future__ import annotations

import random
import sys

import pytest

from scrapy_charset.encoding import cjk, reference
from scrapy_charset.encoding.fast import charmap_table
from scrapy_charset.encoding.labels import BY_NAME

needs_compiled = pytest.mark.skipif(
    cjk.compiled is None, reason="built without the compiled decoders"
)

LATIN1 = bytes([*range(0x80), *range(0xA0, 0x100)])


def _inputs() -> list[bytes]:
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
@pytest.mark.parametrize("name", ["windows-1252", "windows-1254", "ISO-8859-15", "macintosh"])
def test_latin1_blocks_decode_as_the_reference(name: str) -> None:
    assert cjk.compiled is not None
    table = charmap_table(name)
    encoding = BY_NAME[name]
    for data in _inputs():
        expected = reference.decode_without_bom(data, encoding)
        text = cjk.compiled.decode_single_byte(data, table)
        # Equal strings of another width compare unequal: this also checks the narrowest width.
        assert text == expected and sys.getsizeof(text) == sys.getsizeof(expected), data.hex()


@needs_compiled
def test_a_table_mapping_latin1_to_itself_but_not_ascii_looks_bytes_up() -> None:
    assert cjk.compiled is not None
    table = charmap_table("windows-1252")
    shifted = table[1:128] + table[0] + table[128:]
    for data in _inputs()[:300]:
        text = cjk.compiled.decode_single_byte(data, shifted)
        expected = data.decode("latin-1").translate(dict(enumerate(shifted)))
        assert text == expected and sys.getsizeof(text) == sys.getsizeof(expected), data.hex()
