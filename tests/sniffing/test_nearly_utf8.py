"""Undeclared UTF-8 with a few invalid sequences (a Latin-1 byte pasted in, a character cut in
two, bytes no encoding has): read as UTF-8, each invalid sequence a U+FFFD, like valid UTF-8
(source ``utf8``). Before, such a page went to detection, which read a French or Russian page
as EUC-KR, Shift_JIS, GBK or KOI8-R (every letter wrong); Chromium and stock Scrapy show
windows-1252 (every letter mojibake). Legacy text is never read so."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from scrapy_charset.encoding import UTF_8, decode, lookup
from scrapy_charset.sniffing import Source, decode_html, sniff
from scrapy_charset.sniffing.detect import CharsetNormalizerDetector, is_mostly_utf8
from scrapy_charset.sniffing.documents import decode_text

TEXTS = {
    "fr": "Le café est très bon, où êtes-vous ? Déjà là, ça va très bien.",
    "de": "Größe und Qualität der Äpfel für München, schön und süß.",
    "ru": "Привет, как дела? Это очень хорошая страница о погоде в Москве.",
    "ja": "これは日本語のページです。天気予報をお知らせします。",
    "zh": "这是一个关于天气的中文网页，欢迎访问。",
    "el": "Αυτή είναι μια ελληνική σελίδα για τον καιρό στην Αθήνα.",
    "he": "זהו דף בעברית על מזג האוויר בירושלים היום.",
}
# Invalid sequences and how many U+FFFD the Encoding Standard's decoder gives for each.
STRAYS = {
    "latin-1 e9": (b"caf\xe9 ", 1),
    "cut 3-byte": (b"\xe2\x80 ", 1),
    "cut 4-byte": (b"\xf0\x9f\x98 ", 1),
    "ff": (b"\xff", 1),
    "lone continuation": (b"\x80", 1),
    "overlong": (b"\xc0\xaf", 2),
    "surrogate": (b"\xed\xa0\x80", 3),
    "windows-1252 quote": (b"\x93quoted\x94", 2),
}
DETECTION_PAGES = Path(__file__).parents[1] / "data" / "detection"


def _page(paragraphs: list[bytes]) -> bytes:
    return b"<html><head><title>t</title></head><body>" + b"".join(paragraphs) + b"</body></html>"


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize("stray", sorted(STRAYS))
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("size", [2, 40])
def test_utf8_with_an_invalid_sequence_reads_as_utf8(
    language: str, stray: str, where: str, size: int
) -> None:
    raw, replacements = STRAYS[stray]
    paragraph = f"<p>{TEXTS[language]}</p>".encode()
    paragraphs = [paragraph] * size
    index = {"first": 0, "middle": size // 2, "last": size}[where]
    paragraphs.insert(index, b"<p>" + raw + b"</p>")
    body = _page(paragraphs)
    for url in (None, "http://www.example.com/", "http://www.example.jp/"):
        text, decision = decode_html(body, url=url)
        assert (decision.encoding, decision.source) == (UTF_8, Source.UTF8)
        assert text == decode(body, UTF_8)
        assert text.count("\ufffd") == replacements
        assert text.count(TEXTS[language]) == size


def test_several_invalid_sequences_in_a_long_page() -> None:
    paragraph = f"<p>{TEXTS['fr']}</p>".encode()
    body = _page([paragraph * 20 + b"<p>\xe9\xe8 \xff</p>"] * 5)
    text, decision = decode_html(body)
    assert decision.source is Source.UTF8
    assert text.count("\ufffd") == 15 and text.count(TEXTS["fr"]) == 100


def test_plain_text_and_the_detectors_fast_path() -> None:
    body = (TEXTS["ru"] + "\n").encode() * 3 + b"\xff\n"
    text, decision = decode_text(body, None, url=None)
    assert (decision.encoding, decision.source) == (UTF_8, Source.UTF8)
    assert text == decode(body, UTF_8)
    assert CharsetNormalizerDetector().detect(body, tld=None) == UTF_8


def test_too_few_valid_characters_are_left_to_detection() -> None:
    # One `é` and one stray byte tell nothing: the bytes are a windows-1252 page's as well.
    body = _page([b"<p>caf\xc3\xa9 cr\xe8me br\xfbl\xe9e</p>"])
    assert not is_mostly_utf8(body)
    assert sniff(body).source is not Source.UTF8


def _legacy_pages() -> list[tuple[str, str]]:
    with (DETECTION_PAGES / "MANIFEST.tsv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["file"], r["whatwg_encoding"]) for r in rows if r["whatwg_encoding"] != "UTF-8"]


@pytest.mark.parametrize(("name", "encoding"), _legacy_pages())
def test_legacy_pages_are_not_nearly_utf8(name: str, encoding: str) -> None:
    # Every labelled legacy page (69 languages, every single-byte and CJK encoding): legacy
    # text has at most about one valid UTF-8 sequence per invalid one.
    body = (DETECTION_PAGES / name).read_bytes()
    assert not is_mostly_utf8(body)
    text, decision = decode_html(body)
    assert decision.source is not Source.UTF8
    assert decision.encoding != UTF_8 or lookup(encoding) == UTF_8


def test_only_the_detection_window_is_looked_at() -> None:
    # A 5 MB body: the check reads the first 64 KiB, so its cost is bounded.
    body = _page([f"<p>{TEXTS['de']}</p>".encode()] * 40 + [b"<p>\xff</p>"]) * 2000
    assert len(body) > 5_000_000
    assert is_mostly_utf8(body)
    assert not is_mostly_utf8(b"\xff" * 70_000 + "é".encode() * 1_000_000)


def test_many_invalid_bytes_are_no_few() -> None:
    # Binary data served as text/html (an image's white pixels, 0xFF padding) is no UTF-8
    # with a few invalid bytes, however much text surrounds it; nor are more than 256 stray
    # bytes, even with eight characters or more around each.
    assert not is_mostly_utf8(_page([f"<p>{TEXTS['fr']}</p>".encode() * 40, b"\xff" * 70_000]))
    stray = ("é" * 8).encode() + b"\xe9"
    assert is_mostly_utf8(stray * 256 + b".")
    assert not is_mostly_utf8(stray * 257 + b".")
    for body in (b"\xff" * 100_000, b"BM6\x00\x03\x00" + b"\xff" * 196_608):
        text, decision = decode_html(body)
        assert decision.source is Source.DETECTION and "\ufffd" not in text


@pytest.mark.parametrize(
    ("end", "mostly"),
    [
        ("日".encode()[:2], True),  # a character cut off at the end of the part looked at
        ("😀".encode()[:3], True),
        (b"\xed\xa0", False),  # a surrogate's start: invalid, not cut off
        (b"\xff", False),
    ],
)
def test_a_sequence_cut_off_at_the_end_is_no_error(end: bytes, mostly: bool) -> None:
    # Eight characters and one stretch of invalid bytes: just enough; one more stretch at the
    # end is too many, a character cut off there is none.
    body = ("日本語のページ。".encode() + b"\xff" + "日".encode()) + end
    assert is_mostly_utf8(body) is mostly
