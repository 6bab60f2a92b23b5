"""No label, header or meta may select an encoding that turns ASCII bytes into markup.

UTF-7 (``+ADw-`` is ``<``), HZ (``~{``) and ISO-2022-KR/CN (ESC and shift bytes) can make a
decoder emit ``<``, ``>``, ``"`` or ``'`` where the bytes hold none: a page a browser shows as
harmless text would reach the spider as markup. Browsers never use those decoders; every
Python codec name is swept here to prove this project never does either.
"""

from __future__ import annotations

import codecs
import encodings
import encodings.aliases
import pkgutil

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, REPLACEMENT, Encoding, decode, lookup

MARKUP = "<>\"'&"
WHATWG_LABELS = sorted({label for enc in ALL_ENCODINGS for label in enc.labels})


def _python_codec_names() -> list[str]:
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    names |= {module.name for module in pkgutil.iter_modules(encodings.__path__)}
    spellings = set()
    for name in names:
        spellings |= {name, name.upper(), name.replace("_", "-"), name.replace("_", "")}
    spellings |= {"utf-7", "UTF-7", "unicode-1-1-utf-7", "csUnicode11UTF7", "hz-gb-2312",
                  "iso-2022-kr", "iso-2022-cn", "iso-2022-cn-ext", "x-imap4-modified-utf7"}
    return sorted(spellings)


PYTHON_NAMES = _python_codec_names()
ALL_NAMES = sorted(set(WHATWG_LABELS) | set(PYTHON_NAMES))

# ASCII-range byte strings that decode to markup in some decoder somewhere.
SMUGGLERS: tuple[bytes, ...] = (
    b"+ADw-script+AD4-alert(1)+ADw-/script+AD4-",
    b"+ACI-+ACc-+ACY-",
    b"+AD4APA-",
    b"~{!<!>~}",
    b"~{<>~}",
    b"\x1b$)C\x0e\x21\x3c\x0f",
    b"\x1b$A\x0e!<\x0f",
    b"\x1b$B!<!>\x1b(B",
    b"\x1b$@!C!I\x1b(J\\~",
    b"\x1b(I<>",
    b"\x1b$(D!<\x1b(B",
    b"\\u003c\\x3c&#60;&lt;",
    b"\x00<\x00>",
    bytes(range(128)),
)


def created_markup(data: bytes, text: str) -> dict[str, tuple[int, int]]:
    """Markup characters that occur more often in ``text`` than their bytes do in ``data``."""
    excess = {}
    for char in MARKUP:
        in_text, in_bytes = text.count(char), data.count(char.encode("ascii"))
        if in_text > in_bytes:
            excess[char] = (in_text, in_bytes)
    return excess


def test_sweep_covers_python_and_whatwg_names() -> None:
    assert len(WHATWG_LABELS) == 228
    assert {"utf_7", "utf-7", "hz", "iso2022_kr", "cp037"} <= set(PYTHON_NAMES)
    assert len(PYTHON_NAMES) > 1000


@pytest.mark.parametrize(
    "name", ["utf-7", "UTF-7", "utf7", "utf_7", "u7", "unicode-1-1-utf-7", "csUnicode11UTF7",
             "x-imap4-modified-utf7", "hz", "HZ", "hzgb", "hz_gb", "cp037", "cp500", "idna",
             "punycode", "rot13", "base64", "zlib", "uu", "hex", "quopri", "unicode_escape",
             "raw_unicode_escape", "utf-32", "utf_16", "ucs-4", "mbcs", "johab", "iso2022_jp_2"]
)
def test_python_only_names_are_not_labels(name: str) -> None:
    assert lookup(name) is None


@pytest.mark.parametrize("name", ["hz-gb-2312", "iso-2022-kr", "iso-2022-cn", "iso-2022-cn-ext",
                                  "csiso2022kr"])
def test_dangerous_standard_labels_mean_replacement(name: str) -> None:
    # The standard maps these to "replacement" precisely so their content is never decoded.
    assert lookup(name) is REPLACEMENT
    assert decode(b"~{<>~}", name) == "\ufffd"


def test_every_name_resolves_to_a_standard_encoding_or_nothing() -> None:
    for name in ALL_NAMES:
        encoding = lookup(name)
        assert encoding is None or any(encoding is enc for enc in ALL_ENCODINGS), name
        if encoding is not None:
            for data in SMUGGLERS:
                assert not created_markup(data, decode(data, encoding)), (name, data)


ASCII_IDENTITY_EXCEPTIONS = {"UTF-16BE", "UTF-16LE", "replacement", "ISO-2022-JP"}


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=lambda e: e.name)
def test_ascii_bytes_decode_to_themselves_where_the_standard_says_so(encoding: Encoding) -> None:
    data = bytes(range(128)) + b"".join(SMUGGLERS[:4])
    text = decode(data, encoding, bom="keep")
    if encoding.name not in ASCII_IDENTITY_EXCEPTIONS:
        assert text == data.decode("ascii")
    elif encoding.name == "ISO-2022-JP":
        # ASCII state: every byte but ESC, SO and SI is itself.
        plain = bytes(b for b in data if b not in (0x0E, 0x0F, 0x1B))
        assert decode(plain, encoding) == plain.decode("ascii")
    elif encoding is REPLACEMENT:
        assert text == "\ufffd"
    assert not created_markup(data, text)


def test_iso_2022_jp_escapes_hide_markup_but_never_create_it() -> None:
    # ESC $ B switches to JIS X 0208 pairs: "!<" and "!>" are pointers 27 and 29 of
    # index-jis0208 (U+30FC, U+2010), not markup; ESC ( B returns to ASCII.
    text = decode(b"\x1b$B!<!>\x1b(B<p>", "iso-2022-jp")
    assert text == "\u30fc\u2010<p>"
    assert text.count("<") == 1 and text.endswith("<p>")
    # ESC ( J is JIS X 0201 Roman: only 0x5C and 0x7E change (to YEN SIGN and OVERLINE).
    assert decode(b"\x1b(J<\\~>\"'", "iso-2022-jp") == "<\u00a5\u203e>\"'"
    # ESC ( I is katakana: 0x21-0x5F become U+FF61-U+FF9F, so "<" (0x3C) becomes U+FF7C.
    assert decode(b"\x1b(I<", "iso-2022-jp") == "\uff7c"


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=lambda e: e.name)
def test_python_codec_of_each_encoding_creates_no_markup(encoding: Encoding) -> None:
    # response.encoding holds this codec; Scrapy and w3lib decode with it when they re-decode.
    assert codecs.lookup(encoding.python_codec).name not in {"utf-7", "hz", "iso2022_kr"}
    for data in SMUGGLERS:
        text = data.decode(encoding.python_codec, "replace")
        assert not created_markup(data, text), (encoding.python_codec, data, text)


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=lambda e: e.name)
def test_no_byte_sequence_creates_markup(encoding: Encoding) -> None:
    # Every 1-byte and 2-byte sequence, and 3-byte ones around ESC and the gb18030 form.
    sequences = [bytes([a]) for a in range(256)]
    sequences += [bytes([a, b]) for a in range(256) for b in (0x22, 0x26, 0x27, 0x3C, 0x3E)]
    sequences += [bytes([a, b]) for a in (0x3C, 0x3E, 0x22, 0x27, 0x26) for b in range(256)]
    sequences += [b"\x1b" + bytes([a, b]) for a in range(0x20, 0x30) for b in range(0x20, 0x50)]
    sequences += [bytes([0x81, 0x30, a, 0x30]) for a in range(0x81, 0xFF)]
    for data in sequences:
        text = decode(data, encoding, bom="keep")
        assert not created_markup(data, text), (encoding.name, data, text)
