"""The ``scrapy-charset-<name>`` Python codecs: the browser's encoder and decoder by name."""

from __future__ import annotations

import codecs
import io
import itertools

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, decode, encode
from scrapy_charset.encoding.pycodecs import codec_name, encoding_of


@pytest.mark.parametrize("enc", ALL_ENCODINGS, ids=lambda e: e.name)
def test_every_encoding_is_registered(enc: object) -> None:
    name = codec_name(enc)  # type: ignore[arg-type]
    info = codecs.lookup(name)
    assert info.name == name
    assert encoding_of(name.upper().replace("-", "_")) == enc


def test_encode_is_the_standards_encoder_in_html_mode() -> None:
    text = "東京\uff5e大阪 é"
    assert text.encode("scrapy-charset-euc-jp") == encode(text, "EUC-JP")
    expected = b"\xc5\xec\xb5\xfe\xa1\xc1\xc2\xe7\xba\xe5 &#233;"
    assert text.encode("scrapy-charset-euc-jp") == expected
    assert text.encode("scrapy-charset-euc-jp", "xmlcharrefreplace").endswith(b"&#233;")
    # Other error handlers are called for the characters the encoder lacks.
    assert text.encode("scrapy-charset-euc-jp", "replace").endswith(b" ?")
    assert text.encode("scrapy-charset-euc-jp", "ignore").endswith(b" ")
    with pytest.raises(UnicodeEncodeError) as info:
        text.encode("scrapy-charset-euc-jp", "fatal")
    assert (info.value.start, info.value.end) == (6, 7)
    assert "\u00e9".encode("scrapy-charset-replacement") == b"\xc3\xa9"


@pytest.mark.parametrize(("name", "python"), [("utf-16le", "utf-16-le"), ("utf-16be", "utf-16-be")])
def test_utf16_codecs_decode_utf16_and_encode_the_output_encoding(name: str, python: str) -> None:
    # A browser writes URLs and forms of a UTF-16 page in UTF-8 (get an output encoding).
    codec = "scrapy-charset-" + name
    text = "東京 é 🙂"
    assert text.encode(codec) == text.encode("utf-8") == encode(text, "UTF-8")
    assert text.encode(codec, "fatal") == text.encode("utf-8")
    assert "\ud800".encode(codec) == "\ufffd".encode("utf-8")  # a lone surrogate
    assert codecs.getincrementalencoder(codec)().encode(text, True) == text.encode("utf-8")
    assert text.encode(python).decode(codec) == text
    assert (b"\x00" + text.encode(python)).decode(codec) != text
    assert b"\x00".decode(codec) == "\ufffd"  # a cut-off code unit


def test_decode_is_the_browsers_decode_without_bom() -> None:
    data = b"\xa1\xc1\xff"
    assert data.decode("scrapy-charset-euc-jp") == decode(data, "EUC-JP", bom="keep")
    assert data.decode("scrapy-charset-euc-jp") == "\uff5e\ufffd"
    with pytest.raises(UnicodeDecodeError) as info:
        data.decode("scrapy-charset-euc-jp", "fatal")
    assert info.value.start == 2
    assert b"\xef\xbb\xbfx".decode("scrapy-charset-utf-8") == "\ufeffx"
    # gb18030's four bytes for U+FFFD are not an error.
    assert b"\x84\x31\xa4\x37".decode("scrapy-charset-gb18030", "fatal") == "\ufffd"
    with pytest.raises(UnicodeDecodeError):
        b"\x84\x31\xa4".decode("scrapy-charset-gb18030", "fatal")


def test_incremental_and_stream_use() -> None:
    data = "いろは東京".encode("shift_jis")
    decoder = codecs.getincrementaldecoder("scrapy-charset-shift_jis")()
    assert "".join(decoder.decode(data[i : i + 1]) for i in range(len(data))) + decoder.decode(
        b"", True
    ) == "いろは東京"
    encoder = codecs.getincrementalencoder("scrapy-charset-shift_jis")()
    assert encoder.encode("いろは") + encoder.encode("東京", True) == data
    stream = io.BytesIO()
    writer = codecs.getwriter("scrapy-charset-big5")(stream)
    writer.write("\uff5e")
    assert stream.getvalue() == b"\xa1\xe3"
    assert codecs.getreader("scrapy-charset-big5")(io.BytesIO(b"\xa1\xe3")).read() == "\uff5e"


def test_unknown_names_are_left_to_other_codecs() -> None:
    assert encoding_of("scrapy-charset-nope") is None
    with pytest.raises(LookupError):
        codecs.lookup("scrapy-charset-nope")
    assert codecs.lookup("euc_jp").name == "euc_jp"


# ISO-2022-JP's encoder has a state (ASCII, Roman for ¥ and ‾, JIS X 0208): an encode split
# into chunks must give the one-shot bytes, with no escape back to ASCII between chunks.
ISO_2022_JP_TEXT = "a¥\\‾~東ｶ京\x1bé🙂b¥¥c東x~"


def _split_encodes(text: str, cuts: tuple[int, ...], errors: str) -> bytes:
    encoder = codecs.getincrementalencoder("scrapy-charset-iso-2022-jp")(errors)
    bounds = (0, *cuts, len(text))
    parts = [encoder.encode(text[a:b]) for a, b in itertools.pairwise(bounds)]
    return b"".join(parts) + encoder.encode("", final=True)


@pytest.mark.parametrize("errors", ["strict", "replace", "ignore"])
def test_iso_2022_jp_split_encodes_are_the_one_shot_encode(errors: str) -> None:
    text = ISO_2022_JP_TEXT
    whole = text.encode("scrapy-charset-iso-2022-jp", errors)
    if errors == "strict":
        assert whole == encode(text, "ISO-2022-JP")
    assert whole.endswith(b"~") and whole.count(b"\x1b(B") == 4  # ends in ASCII: no closing escape
    for i in range(len(text) + 1):
        assert _split_encodes(text, (i,), errors) == whole, i
        for j in range(i, len(text) + 1):
            assert _split_encodes(text, (i, j), errors) == whole, (i, j)
    assert _split_encodes(text, tuple(range(1, len(text))), errors) == whole


@pytest.mark.parametrize("end", ["東", "¥", "‾", "a", "ｶ", ""])
def test_iso_2022_jp_state_at_the_end_of_a_chunk(end: str) -> None:
    # The closing escape comes with final=True (or the state is kept for the next chunk).
    text = "x東y" + end
    whole = encode(text, "ISO-2022-JP")
    encoder = codecs.getincrementalencoder("scrapy-charset-iso-2022-jp")()
    head = encoder.encode(text)
    assert head + encoder.encode("", final=True) == whole
    assert encoder.encode("", final=True) == b""  # nothing twice
    state = encoder.getstate()
    encoder.encode(text)
    saved = encoder.getstate()
    encoder.setstate(state)
    assert encoder.encode("東", final=True) == encode("東", "ISO-2022-JP")
    encoder.setstate(saved)
    assert encoder.encode("東", final=True) == encode(text + "東", "ISO-2022-JP")[len(head) :]
    encoder.encode(text)
    encoder.reset()
    assert encoder.encode("a", final=True) == b"a"


def test_iso_2022_jp_fatal_split_reports_the_chunk_position() -> None:
    encoder = codecs.getincrementalencoder("scrapy-charset-iso-2022-jp")("fatal")
    assert encoder.encode("東") == b"\x1b$B\x45\x6c"
    with pytest.raises(UnicodeEncodeError) as info:
        encoder.encode("京é")
    assert (info.value.object, info.value.start, info.value.end) == ("京é", 1, 2)


def test_iso_2022_jp_stream_writer_keeps_the_state() -> None:
    stream = io.BytesIO()
    writer = codecs.getwriter("scrapy-charset-iso-2022-jp")(stream)
    for chunk in ("東", "京", "¥", "x"):
        writer.write(chunk)
    writer.write("東")
    writer.reset()
    assert stream.getvalue() == encode("東京¥x東", "ISO-2022-JP")


@pytest.mark.parametrize("enc", ALL_ENCODINGS, ids=lambda e: e.name)
def test_every_incremental_encoder_splits_like_one_shot(enc: object) -> None:
    text = "a¥東ｶ京é🙂€\u0080~ü"
    name = codec_name(enc)  # type: ignore[arg-type]
    whole = text.encode(name)
    for i in range(len(text) + 1):
        encoder = codecs.getincrementalencoder(name)()
        assert encoder.encode(text[:i]) + encoder.encode(text[i:], final=True) == whole
