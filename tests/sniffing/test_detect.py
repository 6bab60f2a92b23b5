"""Detection: fast paths, browser encodings only, bounded work, pluggable backends."""

from __future__ import annotations

import charset_normalizer
import pytest

from scrapy_charset.encoding import UTF_8, lookup
from scrapy_charset.sniffing import (
    ChardetngDetector,
    CharsetNormalizerDetector,
    Detector,
    Source,
    decode_html,
    sniff,
)
from scrapy_charset.sniffing.detect import SAMPLE_BYTES, whatwg_encoding_for

TEXTS = {
    "windows-1251": "<p>Привет! Это пример текста на русском языке, чтобы всё проверить.</p>",
    "Shift_JIS": "<p>これは日本語のテキストです。文字コードの判定を確認します。</p>",
    "EUC-KR": "<p>이것은 한국어 웹 페이지의 예입니다. 문자 인코딩을 확인합니다.</p>",
    "GBK": "<p>这是一个中文网页的例子，用来测试字符编码的检测。</p>",
    "windows-1252": "<p>Voilà un texte français, très élégant, où l'on parle de café.</p>",
}


@pytest.mark.parametrize("name", TEXTS)
def test_legacy_pages_are_detected(name: str) -> None:
    encoding = lookup(name)
    assert encoding is not None
    body = ("<html><body>" + TEXTS[name] * 3 + "</body></html>").encode(encoding.python_codec)
    text, decision = decode_html(body)
    assert decision.source is Source.DETECTION
    assert decision.encoding == encoding
    assert TEXTS[name] in text


@pytest.mark.parametrize(
    "text",
    [
        "<p>Café au lait — très bien</p>",
        "<p>Voilà un texte français, très élégant, où l'on parle de café.</p>",
        "<html><body><p>Müller & Söhne GmbH – Straße 5, Zürich</p></body></html>",
    ],
)
def test_short_windows_1252_pages(text: str) -> None:
    # charset-normalizer alone calls such pages cp1250 (3.5.3) or cp775 (3.5): mojibake.
    decoded, decision = decode_html(text.encode("cp1252"))
    assert decision.encoding == lookup("windows-1252")
    assert decoded == text


def test_big_ascii_page_with_one_byte_reads_only_a_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    # charset-normalizer alone reads all 5 MB (seconds) and answers cp1250 (3.5.3) or johab.
    body = b"<html><body><p>" + b"plain ascii text " * 300_000 + b"caf\xe9</p></body></html>"
    seen: list[int] = []
    original = charset_normalizer.from_bytes

    def recording(data: bytes, *args: object, **kwargs: object) -> object:
        seen.append(len(data))
        return original(data, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(charset_normalizer, "from_bytes", recording)
    decision = sniff(body)
    assert decision.encoding == lookup("windows-1252")
    assert max(seen, default=0) <= SAMPLE_BYTES


def test_utf8_and_utf16_fast_paths() -> None:
    assert CharsetNormalizerDetector().detect("naïve café".encode(), tld=None) == UTF_8
    assert CharsetNormalizerDetector().detect(b"only ascii", tld=None) is None
    utf16 = "<html><body>plain text without a byte order mark</body></html>"
    assert sniff(utf16.encode("utf-16-le")).encoding == lookup("utf-16le")
    assert sniff(utf16.encode("utf-16-be")).encoding == lookup("utf-16be")
    # A UTF-8 body cut inside its last character is still UTF-8.
    assert CharsetNormalizerDetector().detect("é".encode() * 10 + b"\xc3", tld=None) == UTF_8


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("cp1252", "windows-1252"),
        ("ascii", "windows-1252"),
        ("cp932", "Shift_JIS"),
        ("gb18030", "GBK"),
        ("big5hkscs", "Big5"),
        ("mac_cyrillic", "x-mac-cyrillic"),
        ("iso8859_9", "windows-1254"),
        ("utf_8", "UTF-8"),
        ("koi8-r", "KOI8-R"),
        ("cp775", None),
        ("johab", None),
        ("utf_7", None),
        ("utf_16", None),
        ("utf_32", None),
        ("hz", None),
        ("", None),
        (None, None),
    ],
)
def test_answers_map_to_browser_encodings(answer: str | None, expected: str | None) -> None:
    assert whatwg_encoding_for(answer) == (lookup(expected) if expected else None)


def test_detectors_follow_the_protocol() -> None:
    assert isinstance(CharsetNormalizerDetector(), Detector)
    assert isinstance(ChardetngDetector(), Detector)


def test_a_custom_detector_is_used_with_the_tld() -> None:
    calls: list[str | None] = []

    class Fixed:
        def detect(self, data: bytes, *, tld: str | None) -> object:
            calls.append(tld)
            return lookup("koi8-r")

    decision = sniff(b"<p>\xf0\xd2\xc9</p>", url="http://a.example.ru/x", detector=Fixed())  # type: ignore[arg-type]
    assert decision.encoding == lookup("koi8-r")
    assert decision.source is Source.DETECTION
    assert calls == ["ru"]


def test_chardetng_backend() -> None:
    body = ("<p>" + TEXTS["windows-1251"] * 3 + "</p>").encode("cp1251")
    decision = sniff(body, detector=ChardetngDetector())
    assert decision.encoding == lookup("windows-1251")


def test_latin_text_follows_a_latin_tld() -> None:
    # Measured in Chromium: French windows-1252 text reads as ISO-8859-2 on .pl.
    body = ("<p>" + TEXTS["windows-1252"] + "</p>").encode("cp1252")
    assert sniff(body, url="http://example.pl/").encoding == lookup("iso-8859-2")
    assert sniff(body, url="http://example.com/").encoding == lookup("windows-1252")


def test_a_failing_or_odd_detector_is_reported_to_the_caller() -> None:
    # The caller (the middleware) counts these as internal errors; declared pages never
    # reach the detector.
    class Broken:
        def detect(self, data: bytes, *, tld: str | None) -> object:
            raise RuntimeError("model not loaded")

    class Label:
        def detect(self, data: bytes, *, tld: str | None) -> object:
            return "koi8-r"

    body = b"<p>\xf0\xd2\xc9\xd7\xc5\xd4</p>"
    with pytest.raises(RuntimeError):
        sniff(body, detector=Broken())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not an Encoding"):
        sniff(body, detector=Label())  # type: ignore[arg-type]
    declared = sniff(body, "text/html; charset=koi8-r", detector=Broken())  # type: ignore[arg-type]
    assert declared.source is Source.HEADER


def test_kanji_only_japanese_is_shift_jis() -> None:
    # No kana at all: common kanji still mark the text as Japanese.
    text = "JRA日本中央競馬会 価格 1,000～2,000円"
    body = f"<html><head><title>競馬</title></head><body><p>{text}</p></body></html>"
    decoded, decision = decode_html(body.encode("cp932"))
    assert decision.encoding == lookup("shift_jis")
    assert text in decoded
