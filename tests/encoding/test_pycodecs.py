"""The ``scrapy-charset-<name>`` Python codecs: the browser's encoder and decoder by name."""

from __future__ import annotations

import codecs
import io

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
