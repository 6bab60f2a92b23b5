"""``sniff_xml`` and ``sniff_text``: the certain rules, then each document type's own."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import lookup
from scrapy_charset.sniffing import Declaration, Source, sniff_text, sniff_xml

RU = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 4


@pytest.mark.parametrize("sniffer", [sniff_xml, sniff_text])
def test_certain_rules_come_first_in_order(sniffer) -> None:  # type: ignore[no-untyped-def]
    body = b"\xef\xbb\xbf<?xml version='1.0' encoding='koi8-r'?><a/>"
    forced = sniffer(body, "text/xml; charset=windows-1251", forced="shift_jis")
    assert (forced.encoding.name, forced.source) == ("Shift_JIS", Source.FORCED)
    bom = sniffer(body, "text/xml; charset=windows-1251")
    assert (bom.encoding.name, bom.source) == ("UTF-8", Source.BOM)
    header = sniffer(body[3:], b"text/xml; charset=windows-1251")
    assert (header.encoding.name, header.source, header.label) == (
        "windows-1251",
        Source.HEADER,
        "windows-1251",
    )


@pytest.mark.parametrize("sniffer", [sniff_xml, sniff_text])
def test_unknown_labels_are_reported_as_overridden(sniffer) -> None:  # type: ignore[no-untyped-def]
    decision = sniffer(b"\xff\xfea\x00", "text/plain; charset=utf-7", forced="ebcdic")
    assert decision.source is Source.BOM and decision.encoding.name == "UTF-16LE"
    assert decision.overridden == (
        Declaration(Source.FORCED, "ebcdic", None),
        Declaration(Source.HEADER, "utf-7", None),
    )


def test_xml_declaration_then_utf8() -> None:
    body = "<?xml version='1.0' encoding='windows-1251'?><t>Привет</t>".encode("cp1251")
    decision = sniff_xml(body)
    assert (decision.encoding.name, decision.source, decision.label) == (
        "windows-1251",
        Source.XML_DECLARATION,
        "windows-1251",
    )
    utf16 = "<?xml version='1.0'?><t/>".encode("utf-16-le")
    assert sniff_xml(utf16).encoding.name == "UTF-16LE"
    assert sniff_xml(b"<t>\xd0\x9f</t>").source is Source.DEFAULT
    assert sniff_xml(b"<t>\xd0\x9f</t>").encoding.name == "UTF-8"
    # No <meta> and no guessing for XML.
    meta = b"<html><meta charset=koi8-r><p>\xf0\xd2\xc9</p></html>"
    assert sniff_xml(meta).encoding.name == "UTF-8"


def test_plain_text_utf8_detection_tld_default() -> None:
    assert sniff_text("Привет".encode()).source is Source.UTF8
    detected = sniff_text(RU.encode("cp1251"))
    assert (detected.encoding.name, detected.source) == ("windows-1251", Source.DETECTION)
    # Without detection: the URL's TLD, then windows-1252.
    tld = sniff_text(b"caf\xe9", url="http://example.ru/a", detector=None)
    assert (tld.encoding, tld.source) == (lookup("windows-1251"), Source.TLD)
    assert sniff_text(
        b"caf\xe9", url="http://example.ru/a", detector=None, tld_hint=False
    ).source is (Source.DEFAULT)
    assert sniff_text(b"plain", detector=None).encoding.name == "windows-1252"


def test_a_detector_answering_nonsense_is_a_type_error() -> None:
    class Broken:
        def detect(self, data: bytes, *, tld: str | None) -> object:
            return 42

    with pytest.raises(TypeError):
        sniff_text(b"caf\xe9", detector=Broken())  # type: ignore[arg-type]


def test_a_header_that_agrees_with_the_bom_did_not_lose() -> None:
    decision = sniff_xml(b"\xef\xbb\xbf<a/>", "text/xml; charset=utf-8")
    assert decision.source is Source.BOM and decision.overridden == ()
    decision = sniff_xml(b"\xef\xbb\xbf<a/>", "text/xml; charset=koi8-r")
    assert decision.overridden == (Declaration(Source.HEADER, "koi8-r", lookup("koi8-r")),)
