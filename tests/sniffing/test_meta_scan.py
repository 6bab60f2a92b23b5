"""The compiled ``next_meta`` (``encoding/_speedups.c``) against its Python reference
``late_meta._next_meta``: the same answer, step for step, on every recorded Chromium document,
the html5lib encoding suite, the detection corpus, hand-made edge cases and random or hostile
tag soup. Whole scans (``scan_meta_like_chromium``) are compared with the reference too."""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.encoding.cjk import compiled
from scrapy_charset.sniffing import late_meta
from scrapy_charset.sniffing.late_meta import (
    LABELS,
    MAX_IGNORED,
    _names_one,
    _next_meta,
    scan_meta_like_chromium,
)
from scrapy_charset.sniffing.prescan import PRESCAN_LIMIT

pytestmark = pytest.mark.skipif(compiled is None, reason="built without the compiled module")

DATA = Path(__file__).resolve().parents[1] / "data"


def _steps(
    data: bytes, unconditional: int, scan: object, labels: frozenset[bytes] | None = None
) -> Iterator[object]:
    """Every answer of ``scan`` (a next_meta) through ``data``, as the scan calls it."""
    position, in_head = 0, True
    while True:
        found = scan(data, position, in_head, unconditional, labels)  # type: ignore[operator]
        yield found
        if found is None:
            return
        _, position, _, _, in_head = found  # type: ignore[misc]


def assert_same(data: bytes, unconditional: int = PRESCAN_LIMIT) -> None:
    assert compiled is not None
    ours = list(_steps(data, unconditional, compiled.next_meta))
    reference = list(_steps(data, unconditional, _next_meta))
    assert ours == reference, data[:200]
    # With the labels, the same steps less the <meta> tags naming no known label (a <meta>
    # leaves the scan's state as it is), in both.
    naming = [step for step in reference if step is None or _names_one(step[2:4], LABELS)]
    assert list(_steps(data, unconditional, _next_meta, LABELS)) == naming, data[:200]
    assert list(_steps(data, unconditional, compiled.next_meta, LABELS)) == naming, data[:200]
    # Every start: positions inside tags, comments and raw text, in and out of <head>.
    for position in range(0, min(len(data), 300) + 2):
        for in_head in (True, False):
            for labels in (None, LABELS):
                assert compiled.next_meta(
                    data, position, in_head, unconditional, labels
                ) == _next_meta(data, position, in_head, unconditional, labels), (
                    data[:200], position, in_head, labels is None
                )


def _documents(name: str = "documents.jsonl.gz") -> list[bytes]:
    with gzip.open(DATA / "chromium" / name, "rt", encoding="utf-8") as f:
        f.readline()
        return [base64.b64decode(json.loads(line)["body_b64"]) for line in f]


def _html5lib() -> list[bytes]:
    cases = []
    for path in sorted((DATA / "html5lib-tests" / "encoding").glob("*.dat")):
        for block in path.read_bytes().split(b"#data\n")[1:]:
            cases.append(block.partition(b"\n#encoding\n")[0])
    return cases


def _detection() -> list[bytes]:
    return [path.read_bytes() for path in sorted((DATA / "detection").glob("*.html"))]


def test_every_recorded_document() -> None:
    documents = _documents()
    assert len(documents) > 300
    for body in documents:
        assert_same(body)
        assert_same(body, unconditional=0)


def test_every_random_document() -> None:
    # Random documents (scripts/chromium/record_random.py): <meta> in script text with "<!--"
    # and "<script" in it, among the rest.
    documents = _documents("documents_random.jsonl.gz")
    assert len(documents) > 1000
    for body in documents:
        assert_same(body)


@pytest.mark.parametrize("body", _html5lib())
def test_html5lib_suite(body: bytes) -> None:
    assert_same(body)


def test_detection_corpus() -> None:
    for body in _detection():
        assert_same(body)


EDGES = [
    b"",
    b"<",
    b"<m",
    b"<meta",
    b"<meta ",
    b"<meta charset",
    b"<meta charset=",
    b"<meta charset= ",
    b"<meta charset=>",
    b"<meta charset>",
    b"<meta charset=x",
    b"<meta charset=x>",
    b"<meta charset='x",
    b'<meta charset="x">',
    b"<meta/charset=x/>",
    b"<META CHARSET=KOI8-R>",
    b"<meta =charset=x>",
    b"<meta charset = 'x' charset=y>",
    b"<meta content='text/html; charset=x' http-equiv=content-type>",
    b"<meta content='text/html; charset=x' http-equiv=Content-Type http-equiv=x>",
    b"<meta content='text/html; charset=x'>",
    b"<meta http-equiv=content-type content=x>",
    b"<meta http-equiv=content-type content>",
    b"<meta content=a content=b http-equiv=content-type charset=>",
    b"</meta charset=x><meta charset=y>",
    b"<metax charset=x><meta\tcharset=y>",
    b"<!--><meta charset=x>",
    b"<!---><meta charset=x>",
    b"<!----><meta charset=x>",
    b"<!-- --!><meta charset=x>",
    b"<!-- -- ><meta charset=x>-->",
    b"<!--",
    b"<!-",
    b"<!x<meta charset=x>><meta charset=y>",
    b"<?x><meta charset=x>",
    b"</><meta charset=x>",
    b"</ ><meta charset=x>",
    b"</",
    b"<<meta charset=x>",
    b"<1<meta charset=x>",
    b"<script><meta charset=x></script ><meta charset=y>",
    b"<SCRIPT><meta charset=x></scRipt/><meta charset=y>",
    b"<script><meta charset=x></script",
    b"<script><meta charset=x></scripts><meta charset=y>",
    b"<title><meta charset=x></title>",
    b"<textarea><meta charset=x></textarea><meta charset=y>",
    b"<xmp></xmp><iframe></iframe><noembed></noembed><noframes></noframes><meta charset=y>",
    b"<plaintext><meta charset=x>",
    b"<body><meta charset=x>",
    b"<html><head></head><meta charset=x>",
    b"<html><head><link><base><object></object><noscript></noscript><meta charset=x>",
    b"<a b='<meta charset=x>'><meta charset=y>",
    b'<a b="c" d=e f = "g" h><meta charset=y>',
    b"<a b=\"c><meta charset=x>",
    b"<a\x00\xff=\xe9><meta charset=\xe9>",
    b"<meta charset=\x00>",
    b"<\xc4\xb0meta charset=x>",
    b"<meta\x0ccharset=x>",
    b"<meta\x0bcharset=x><meta\rcharset=y>",
]


@pytest.mark.parametrize("body", EDGES)
def test_edge_cases(body: bytes) -> None:
    assert_same(body)
    assert_same(body, unconditional=0)
    assert_same(b" " * 1020 + body)
    assert_same(b"<body>" + b" " * 1020 + body)


# Tag soup from the pieces that matter to the tokenizer.
PIECES = [
    b"<", b">", b"/", b"=", b"'", b'"', b" ", b"\t", b"\n", b"-", b"!", b"?", b"x", b"\xe9",
    b"<!--", b"-->", b"--!>", b"<meta", b"<META", b"charset", b"Charset=", b"content=",
    b"http-equiv=", b"content-type", b"text/html;charset=utf-8", b"utf-8", b"bogus", b"<head",
    b"<html", b"<body", b"</head", b"<script", b"</script", b"<title", b"</title", b"<style",
    b"</Style", b"<plaintext", b"<textarea", b"</", b"<link", b"<a", b"<SCRIPT/", b"</script >",
    # labels known and not, as the charset attribute or in content (spaces, case, quotes)
    b"charset=nope", b" UTF-8\x0c", b"charset = 'x'", b'charset="Latin1 ";', b";charset",
    b"\xe9", b"koi8-r", b"CHARSET",
]


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join),
    st.sampled_from([0, 5, 20, PRESCAN_LIMIT]),
)
def test_random_tag_soup(body: bytes, unconditional: int) -> None:
    assert_same(body, unconditional)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes(body: bytes) -> None:
    assert_same(body)
    assert_same(b"<meta " + body)


HOSTILE = [
    b"<meta " * 5000,
    b'<meta charset="' * 5000,
    b"<meta charset=bogus>" * 5000,
    b"<head><!--" + b"-" * 50000,
    b"<head><script>" + b"<" * 50000,
    b"<head><script>" + b"</scrip" * 20000,
    b"<a b='c' d=\"e\" f=g h " * 5000,
    b"<!x" * 20000,
    b"<meta =a= =b=" * 5000,
    # One unknown label again and again (as spelled, in another case, spaced, or another
    # one in between), then known ones: the compiled scan remembers the last unknown label.
    b"<head>" + b"<meta charset=nope><meta charset=' NOPE '><meta charset=nopf>" * 2000
    + b"<meta charset=nopE><meta charset='koi8-r'><meta charset=utf-8>",
    # The same <meta> again and again (the compiled scan passes over one with the bytes of
    # the last one passed over): then cut inside one, or followed by one that declares, by
    # the same bytes as a prefix of another tag, or out of <head>.
    b"<head>" + b"<meta charset=nope>" * 3000 + b"<meta charset=nope",
    b"<head>" + b"<meta name=a content=b>" * 3000 + b"<meta name=a content=b charset=gbk>",
    b"<head>" + b"<meta charset=nope>" * 3000 + b"<meta charset=nope>x<meta charset=gbk>",
    b"<head>" + b"<meta http-equiv=content-type content=x>" * 3000 + b"<body>" + b" " * 2000
    + b"<meta http-equiv=content-type content=x><meta charset=gbk>",
]


@pytest.mark.parametrize("body", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile(body: bytes) -> None:
    assert compiled is not None
    assert list(_steps(body, PRESCAN_LIMIT, compiled.next_meta)) == list(
        _steps(body, PRESCAN_LIMIT, _next_meta)
    )


@pytest.mark.parametrize("count", [0, 1, MAX_IGNORED - 1, MAX_IGNORED, MAX_IGNORED + 1, 3000])
@pytest.mark.parametrize(
    "unknown",
    [
        lambda i: b"<meta charset=nope>",
        lambda i: b"<meta charset='x-%d'>" % i,
        lambda i: b"<meta http-equiv=Content-Type content='text/html; charset=n%d'>" % i,
        lambda i: b"<meta http-equiv=content-type content='text/html'>",  # declares nothing
        lambda i: b"<meta charset=' %d '>" % i if i % 2 else b"<meta charset=''>",
    ],
)
def test_unknown_labels_before_a_known_one(count: int, unknown: object) -> None:
    # Thousands of <meta> tags naming no known label before one that does (a hostile head):
    # the scan still finds that one, and reports the first MAX_IGNORED unknown ones only.
    metas = [unknown(i) for i in range(count)]  # type: ignore[operator]
    body = b"<head>" + b"".join(metas) + b"<meta charset=' KOI8-R'><meta charset=utf-8>"
    everything = []  # what the scan reported before the cap: every declaration on the way
    position, in_head = 0, True
    while (found := _next_meta(body, position, in_head, PRESCAN_LIMIT)) is not None:
        start, position, value, is_content, in_head = found
        declaration = late_meta._meta_charset(value, is_content, start, position)
        if declaration is not None:
            everything.append(declaration)
            if declaration.encoding is not None:
                break
    found_meta, ignored = scan_meta_like_chromium(body)
    assert found_meta == everything[-1] and found_meta.label == " KOI8-R"
    assert ignored == everything[:-1][:MAX_IGNORED]


def test_the_scan_uses_the_compiled_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled is not None
    assert late_meta.next_meta is compiled.next_meta
    bodies = [*_documents(), *_html5lib(), *EDGES, *HOSTILE]
    ours = [scan_meta_like_chromium(body) for body in bodies]
    monkeypatch.setattr(late_meta, "next_meta", _next_meta)
    assert [scan_meta_like_chromium(body) for body in bodies] == ours


class _Probe:
    """A set member hashed as ``label`` and equal to nothing, counting the comparisons a set
    lookup of ``label`` makes with it: one per lookup."""

    def __init__(self, label: bytes) -> None:
        self.label, self.compared = label, 0

    def __hash__(self) -> int:
        return hash(self.label)

    def __eq__(self, other: object) -> bool:
        self.compared += 1
        return False


def test_one_unknown_label_is_looked_up_once() -> None:
    # A head of thousands of <meta>s repeating one unknown label (in any case and spacing, or
    # the same <meta> again): the compiled scan asks the set of labels once, not once per
    # <meta>, and still stops at the first known one.
    assert compiled is not None
    probe = _Probe(b"nope")
    labels = frozenset((*LABELS, probe))
    body = b"<head>" + b"<meta charset=nope><meta charset=' NoPe '>" * 1000
    found = compiled.next_meta(body + b"<meta charset=koi8-r>", 0, True, PRESCAN_LIMIT, labels)
    assert found is not None and found[2] == b"koi8-r" and found[0] == len(body)
    assert probe.compared == 1
    probe.compared = 0
    same = b"<head>" + b"<meta charset=nope>" * 1000
    found = compiled.next_meta(same + b"<meta charset=koi8-r>", 0, True, PRESCAN_LIMIT, labels)
    assert found is not None and found[0] == len(same)
    assert probe.compared == 1


def test_a_repeated_value_is_read_once() -> None:
    # The first MAX_IGNORED unknown labels come back to Python: one value repeated is read
    # (looked up) once, with the same declarations, offsets and all, as read one by one.
    late_meta._cached_label.cache_clear()
    body = b"<head>" + b"<meta charset=nope>" * 20 + b"<meta charset=KOI8-R>"
    found, ignored = scan_meta_like_chromium(body)
    assert late_meta._cached_label.cache_info().misses == 2
    assert found is not None and found.label == "KOI8-R" and len(ignored) == MAX_IGNORED
    assert ignored == [
        late_meta.MetaDeclaration("nope", None, 6 + 19 * (i + 1), 6 + 19 * i)
        for i in range(MAX_IGNORED)
    ]
