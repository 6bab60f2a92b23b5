"""The prescan's parts, named after the HTML Standard's algorithms."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, lookup
from scrapy_charset.sniffing import extract_encoding_from_meta, get_attribute, prescan
from scrapy_charset.sniffing.prescan import get_xml_encoding, iter_meta_declarations


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b' charset="UTF-8">', (b"charset", b"UTF-8", 16)),
        (b" CHARSET = 'x' >", (b"charset", b"x", 14)),
        (b" charset=koi8-r>", (b"charset", b"koi8-r", 15)),
        (b" =x>", (b"=x", b"", 3)),  # a leading "=" belongs to the name
        (b" a b>", (b"a", b"", 3)),
        (b" a/b>", (b"a", b"", 2)),
        (b" a=>", (b"a", b"", 3)),
        (b" / >", 3),  # no attribute: the position of ">"
    ],
)
def test_get_attribute(data: bytes, expected: object) -> None:
    assert get_attribute(data, 0) == expected


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"text/html; charset=ISO-8859-2", ("ISO-8859-2", "ISO-8859-2")),
        (b"text/html; CharSet = 'koi8-r' ", ("koi8-r", "KOI8-R")),
        (b'charset="gbk"', ("gbk", "GBK")),
        (b"charset=gbk;x", ("gbk", "GBK")),
        (b"charsetcharset=gbk", ("gbk", "GBK")),
        (b"charset x charset=gbk", ("gbk", "GBK")),
        (b"charset=bogus", ("bogus", None)),
        (b"charset='gbk", None),  # unmatched quote
        (b"charset=", None),
        (b"text/html", None),
    ],
)
def test_extract_encoding_from_meta(content: bytes, expected: tuple[str, str | None]) -> None:
    found = extract_encoding_from_meta(content)
    if expected is None:
        assert found is None
    else:
        assert found == (expected[0], lookup(expected[1]) if expected[1] else None)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'<meta charset="x-user-defined">', WINDOWS_1252),
        (b'<meta charset="utf-16be">', UTF_8),
        (b'<meta content="text/html; charset=gbk">', None),  # no http-equiv
        (b'<meta content="text/html; charset=gbk" http-equiv="CONTENT-TYPE">', lookup("gbk")),
        # A charset attribute replaces the content one, even when it is unknown.
        (b'<meta http-equiv=content-type content="charset=gbk" charset=bogus>', None),
        (b'<meta charset=bogus><meta charset="koi8-r">', lookup("koi8-r")),
        (b'<meta charset=gbk charset=koi8-r>', lookup("gbk")),  # repeated names are ignored
        (b'<!-- <meta charset=gbk> --><meta charset="koi8-r">', lookup("koi8-r")),
        (b'<!--><meta charset="koi8-r">-->', lookup("koi8-r")),  # "<!-->" is a whole comment
        (b'<a title="<meta charset=gbk>"><meta charset=koi8-r>', lookup("koi8-r")),
        # "<?" runs to the first ">", so the rest of the fake tag is text.
        (b'<?php <meta charset=gbk> ?><meta charset=koi8-r>', lookup("koi8-r")),
        (b"<meta charset=gbk", None),  # the input ends inside the tag
        (b"<\x00?\x00x\x00m\x00l\x00", UTF_16LE),
        (b"\x00<\x00?\x00x\x00m\x00l", UTF_16BE),
        (b'<?xml version="1.0" encoding="koi8-r"?>', lookup("koi8-r")),
        (b'<?xml version="1.0" encoding="utf-16"?>', UTF_8),
        (b'<?xml version="1.0" encoding="koi8-r"?><meta charset=gbk>', lookup("gbk")),
        (b" " * 1020 + b"<meta charset=gbk>", None),  # past the first 1,024 bytes
    ],
)
def test_prescan(data: bytes, expected: object) -> None:
    assert prescan(data) == expected


def test_meta_labels_are_reported_as_written() -> None:
    found = list(iter_meta_declarations(b'<meta charset=Bogus><META CHARSET=" KOI8-R ">'))
    assert [(m.label, m.encoding) for m in found] == [
        ("Bogus", None),
        (" KOI8-R ", lookup("koi8-r")),
    ]


@pytest.mark.parametrize(
    "data",
    [
        b'<?xml version="1.0" encoding=koi8-r?>',
        b'<?xml version="1.0" encoding="koi8-r',
        b'<?xml version="1.0" encoding="koi 8"?>',
        b'<?xml version="1.0" ENCODING="koi8-r"?>',
        b' <?xml version="1.0" encoding="koi8-r"?>',
        b'<?xml version="1.0"?> encoding="koi8-r"',
    ],
)
def test_get_xml_encoding_failures(data: bytes) -> None:
    assert get_xml_encoding(data) is None
