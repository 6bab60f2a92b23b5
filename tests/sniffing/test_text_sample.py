"""``detect.text_sample`` with the compiled ``text_nodes`` (non-ASCII byte to non-ASCII byte)
against the pattern it replaced, and ``first_high_byte`` (compiled and Python) against a plain
search."""

from __future__ import annotations

import base64
import gzip
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding import fast
from scrapy_charset.encoding.cjk import compiled
from scrapy_charset.sniffing import detect
from scrapy_charset.sniffing.detect import SAMPLE_BYTES, _cut_at_safe_byte, text_sample

DATA = Path(__file__).resolve().parents[1] / "data"
_TEXT_NODE = re.compile(rb">([^<>\x80-\xff]*)[\x80-\xff][^<>]*")
_HIGH = re.compile(rb"[\x80-\xff]")


def reference_sample(data: bytes, limit: int = SAMPLE_BYTES) -> bytes:
    """The text nodes holding non-ASCII bytes, found by a pattern (the former text_sample),
    then, under ``limit``, the bytes from shortly before the first non-ASCII byte that no
    such node holds."""
    sample = bytearray()
    taken = []
    for match in _TEXT_NODE.finditer(data):
        span = (max(match.start(1), match.end(1) - 128), match.end())
        sample += data[span[0] : span[1]] + b"\n"
        taken.append(span)
        if len(sample) >= limit:
            break
    if len(sample) < limit:
        first = _HIGH.search(data)
        if first is not None:
            start = max(data.rfind(b">", 0, first.start()) + 1, first.start() - 128)
            held = set().union(*(range(a, b) for a, b in taken))
            other = bytes(data[i] for i in range(start, len(data)) if i not in held)
            sample += other[: limit - len(sample)]
    return _cut_at_safe_byte(bytes(sample), limit)


def _documents() -> list[bytes]:
    with gzip.open(DATA / "chromium" / "documents.jsonl.gz", "rt", encoding="utf-8") as f:
        f.readline()
        bodies = [base64.b64decode(json.loads(line)["body_b64"]) for line in f]
    return bodies + [path.read_bytes() for path in sorted((DATA / "detection").glob("*.html"))]


def test_the_compiled_scan_is_used() -> None:
    if compiled is not None:
        assert detect.text_nodes is compiled.text_nodes


def test_every_recorded_and_labelled_page() -> None:
    for body in _documents():
        for limit in (SAMPLE_BYTES, 64, 1):
            assert text_sample(body, limit) == reference_sample(body, limit)


PIECES = [b"<", b">", b"<p>", b"</p>", b"<a title='\xe9'>", b"x", b" ", b"\xe9", b"\xc3\xa9",
          b"\x80", b"\xff", b"word ", b"\n", b"<!-- \xe9 -->", b">>", b"<<", b"a" * 130]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join),
       st.sampled_from([SAMPLE_BYTES, 40, 3]))
def test_random_markup(body: bytes, limit: int) -> None:
    assert text_sample(body, limit) == reference_sample(body, limit)


@pytest.mark.parametrize("search", [fast._first_high_byte, fast.first_high_byte])
def test_first_high_byte(search: object) -> None:
    rng = random.Random("first_high_byte")
    for _ in range(3000):
        data = bytes(rng.choice(b"ab<\x7f\x00") for _ in range(rng.randrange(0, 70)))
        if rng.random() < 0.7:
            at = rng.randrange(len(data) + 1)
            data = data[:at] + bytes([rng.randrange(0x80, 0x100)]) + data[at:]
        for start in range(-2, len(data) + 3):
            found = _HIGH.search(data, max(start, 0))
            expected = -1 if found is None else found.start()
            assert search(data, start) == expected, (data, start)  # type: ignore[operator]


# A short page: its one text node is well under the sample's size, so the sample fills up
# with the rest of the page, which held the node's text a second time.
SHORT_CZECH = (
    b"<html><head><title>Obchod</title></head><body><p>Obchod je otevren od pondeli do patku."
    b" Ceny jsou vcetne DPH. Kde je n\xe1dra\xbe\xed?</p><img alt='Ko\xe8ka'></body></html>"
)


def test_a_short_page_is_sampled_once() -> None:
    sample = text_sample(SHORT_CZECH)
    # The words of the text node are counted once, its non-ASCII bytes too.
    assert sample.count(b"jsou") == 1
    assert sample.count(b"n\xe1dra\xbe\xed") == 1
    assert len(sample.translate(None, bytes(range(0x80)))) == 4
    # The bytes outside the node fill up the sample: the attribute's text is in it.
    assert sample.count(b"alt='Ko\xe8ka'") == 1
    # A node with a long ASCII start: 128 bytes of it before its first non-ASCII byte, and
    # the filler, from there, has the tag after it only.
    assert text_sample(b"<p>" + b"a" * 200 + b" caf\xe9</p>") == b"a" * 124 + b" caf\xe9\n</p>"


UNIQUE_PIECES = [
    "<p>{} caf\xe9 {}</p>", "<a title='{} \xe9t\xe9'>{}</a>", "<!-- {} \xe9 {} -->", "{} ",
    "<script>if (a < b) s = '{} \xe9 {}'</script>", "<", ">", "{} \xe9\xe9 {}", "<p>{}</p>",
    "x" * 130 + " {} \xe9",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(UNIQUE_PIECES), max_size=40),
       st.sampled_from([SAMPLE_BYTES, 300, 40]))
def test_no_byte_of_the_page_is_sampled_twice(templates: list[str], limit: int) -> None:
    # Every word of the page is another (w0000, w0001, ...): none may be in the sample twice,
    # and the sample has no more non-ASCII bytes than the page.
    words = (f"w{n:04d}" for n in range(10000))
    body = "".join(t.format(next(words), next(words)) for t in templates).encode("latin-1")
    sample = text_sample(body, limit)
    for word in set(re.findall(rb"w\d{4}", sample)):
        assert sample.count(word) == 1, (body, sample, word)
    high = bytes(range(0x80, 0x100))
    assert len(sample) - len(sample.translate(None, high)) <= len(body) - len(
        body.translate(None, high)
    )
