"""The compiled clean-text check (``_text_speedups.c``) against the pure-Python definitions."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset import quality
from scrapy_charset.quality import (
    _dict_values_clean_python,
    _unclean_positions_python,
    find_mojibake,
    may_have_mojibake,
)

try:
    from scrapy_charset import _text_speedups
except ImportError:  # built without a C compiler
    _text_speedups = None  # type: ignore[assignment]

needs_compiled = pytest.mark.skipif(_text_speedups is None, reason="built without C extensions")

# Mojibake pieces, genuine text in several scripts, typography, U+FFFD, astral characters.
_PIECES = [
    "Ã©", "â€™", "Ã¼", "Â ", "Ð¿", "РџСЂ", "Ñ‚", "é", "ü", "ß", "Ä", "ô", "ế", "ữ", "İ", "ş",
    "東京", "～", "〜", "Привет", "ё", "’", "“", "–", "…", "€", "©", "«", "\u00a0", "\ufffd",
    "\U0001f600", "a", " ", "1", "\u0301", "\x85", "\x9d",
]  # fmt: skip
_texts = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join) | st.text(max_size=20)
_SURROGATE_PIECES = ["\ud800", "\udfff", "Ð\ud83d", "Ã\udc00©", "\ud83d\ude00", "Ã©", "é", "a"]
_surrogate_texts = st.lists(st.sampled_from(_SURROGATE_PIECES), max_size=12).map("".join)


def test_built_where_required() -> None:
    if os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") != "1":
        pytest.skip("the C extensions are optional outside CI")
    assert _text_speedups is not None
    assert quality.dict_values_clean is _text_speedups.dict_values_clean


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(_texts)
def test_one_value_is_clean_where_the_python_prefilter_is_and_never_wrongly(text: str) -> None:
    """The compiled check also wants a lead's whole sequence (Russian "всё", Polish "ół" are
    clean to it, not to the Python prefilter), so it is clean at least where the prefilter is,
    and clean only where the exact checks find nothing."""
    clean = bool(quality.dict_values_clean({"f": text}))
    assert clean >= ("\ufffd" not in text and not may_have_mojibake(text))
    if clean:
        assert "\ufffd" not in text and not find_mojibake(text)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), _texts | st.integers() | st.none(), max_size=6))
def test_clean_means_the_exact_checks_find_nothing(item: dict[object, object]) -> None:
    verdict = quality.dict_values_clean(item)
    python_verdict = _dict_values_clean_python(item)
    if verdict:
        for value in item.values():
            assert isinstance(value, str)
            assert "\ufffd" not in value and not find_mojibake(value)
    # The compiled check looks at each value alone; the Python one at all of them joined, so
    # it may send more items to the exact path, never fewer.
    assert bool(python_verdict) <= bool(verdict)


class _Key(str):
    """A key equal to an exact str, but not one: the pipeline would name its path otherwise."""


@pytest.mark.parametrize(
    ("positions", "clean"),
    [
        (quality.unclean_positions, quality.text_clean),
        (_unclean_positions_python, quality._text_clean_python),
    ],
    ids=["default", "python"],
)
@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from("abcdef"), _texts | st.integers(), max_size=6),
    st.randoms(use_true_random=False),
)
def test_unclean_positions_are_where_text_clean_fails(positions, clean, item, rng) -> None:  # type: ignore[no-untyped-def]
    """Where the keys are the tuple's, in order, and every value is exactly a str: the
    positions of the values text_clean rejects; else None (the item goes value by value)."""
    keys = tuple(item)
    texts = all(type(value) is str for value in item.values())
    expected = [i for i, v in enumerate(item.values()) if not clean(v)] if texts else None
    assert positions(item, keys) == expected
    if len(keys) > 1:  # the same keys in another order
        shuffled = list(keys)
        while tuple(shuffled) == keys:
            rng.shuffle(shuffled)
        assert positions(item, tuple(shuffled)) is None
    assert positions(item, (*keys, "z")) is None
    if texts and keys:  # a str subclass, as a value or as a key
        name = keys[0]
        assert positions({**item, name: _Key(item[name])}, keys) is None
        renamed = {(_Key(k) if k == name else k): v for k, v in item.items()}
        assert positions(renamed, keys) is None


@pytest.mark.parametrize("size", [63, 64, 65, 1000])
def test_unclean_positions_of_a_large_item(size: int) -> None:
    item = {f"f{i}": "Ã©tÃ©" if i % 7 == 3 else "Crème brûlée" for i in range(size)}
    item[f"f{size - 1}"] = "\ufffd"
    expected = [i for i in range(size) if i % 7 == 3 or i == size - 1]
    assert quality.unclean_positions(item, tuple(item)) == expected
    assert _unclean_positions_python(item, tuple(item)) == expected


@pytest.mark.parametrize(
    "check", [quality.dict_values_clean, _dict_values_clean_python], ids=["default", "python"]
)
def test_keys_in_order_give_2(check) -> None:  # type: ignore[no-untyped-def]
    item = {"title": "Crème brûlée", "url": "https://x.example/"}
    assert check(item, ("title", "url")) == 2
    assert check(item, ("url", "title")) == 1
    assert check(item, ("title",)) == 1
    assert check(item) == 1
    assert check({**item, "price": 3}, ("title", "url", "price")) == 0
    assert check({"t": "Ã©tÃ©"}) == 0
    assert check({}, ()) == 2


@needs_compiled
def test_compiled_argument_errors() -> None:
    assert _text_speedups is not None
    with pytest.raises(TypeError):
        _text_speedups.dict_values_clean(["not", "a", "dict"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _text_speedups.dict_values_clean()  # type: ignore[call-arg]


@needs_compiled
@pytest.mark.parametrize("padding", ["a", "é", "ß", "東", "Ж", "\U0001f600", "ö"])
def test_long_text_at_every_offset_agrees_with_python(padding: str) -> None:
    """The compiled check reads 16 bytes at a time; a suspect sequence (or U+FFFD) at any
    offset, across a block boundary or at the very end, in text of every width, must still be
    found, and genuine text next to it must not make it suspect."""
    assert _text_speedups is not None
    suspect = ["Ã©", "â€™", "Ð¿", "Ä…", "ĂŠ", "\ufffd", "ðŸ˜€"]
    for piece in [*suspect, "ä§", "Мё", "ö\u00a0", "é", "–", "â€", "ðŸ˜"]:
        for length in (15, 16, 17, 40):
            for offset in range(length + 1):
                text = padding * offset + piece + padding * (length - offset)
                clean = _text_speedups.text_clean(text)
                if piece in suspect and (padding.isascii() or len(piece) > 2):
                    # (a lone two-character one among non-ASCII text is left alone)
                    assert not clean, (padding, piece, offset)
                assert clean >= ("\ufffd" not in text and not may_have_mojibake(text))
                if clean:
                    assert not find_mojibake(text), (padding, piece, offset)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(_texts)
def test_stretch_counts_count_the_pattern_matches(text: str) -> None:
    """The compiled counts order the misreadings in find_mojibake: each must be the number of
    matches of that misreading's pattern."""
    assert _text_speedups is not None
    expected = tuple(len(m.pattern.findall(text)) for m in quality._MISREADINGS)
    assert _text_speedups.stretch_counts(text) == expected
    assert quality._stretch_counts_python(text) == expected


@needs_compiled
def test_stretch_counts_argument_errors() -> None:
    assert _text_speedups is not None
    for bad in [b"bytes", 0, None]:
        with pytest.raises(TypeError):
            _text_speedups.stretch_counts(bad)  # type: ignore[arg-type]


_CYRILLIC_PIECES = ["Ві", "ві", "Мі", "ї", "є", "і", "н", " ", "Ð¿", "РџСЂ", "Ñ‚", "Ã©", "ё", "Вё"]


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CYRILLIC_PIECES), max_size=16).map("".join))
def test_a_suspect_among_short_stretches_is_clean_only_where_nothing_is_found(text: str) -> None:
    """After a suspect sequence the compiled check counts each misreading's complete and too
    short stretches; it may call the text clean only where the exact checks find nothing."""
    if quality.text_clean(text):
        assert not find_mojibake(text) and quality.count_mojibake(text) == 0


@needs_compiled
def test_genuine_ukrainian_is_clean_without_the_exact_checks() -> None:
    """A capital and і ("Він") reads as a windows-1251 stretch, but among the short ones of
    the rest of the sentence the exact checks pass over it: so does the compiled check."""
    text = "Пляшка для води, 750 мл: Він зберігає напої холодними до 24 годин"
    assert quality.count_mojibake(text) == 0
    assert _text_speedups is not None and _text_speedups.text_clean(text)
    garbled = text.encode().decode("cp1251")
    assert not _text_speedups.text_clean(garbled) and quality.count_mojibake(garbled) > 0


@pytest.fixture(params=[True, False], ids=["avx2", "16-byte"])
def scanner(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Both block scanners (AVX2 where the CPU has it, and SSE2/NEON's 16-byte blocks)."""
    assert _text_speedups is not None
    _text_speedups.use_avx2(request.param)
    yield request.param
    _text_speedups.use_avx2(True)


def _complete_sequences() -> list[str]:
    """For every misreading, every lead character followed by as many continuation characters
    as it announces (cycling through them): every kind of stretch the exact checks repair."""
    sequences = []
    for misreading in quality._MISREADINGS:
        conts = misreading.continuation_chars
        k = 0
        for lead in misreading.lead_chars:
            for _ in range(len(conts) // 4):
                length = misreading.lengths[lead]
                tail = "".join(conts[(k + j * 7) % len(conts)] for j in range(length - 1))
                sequences.append(lead + tail)
                k += 1
    return sequences


@needs_compiled
def test_every_stretch_the_detector_flags_is_a_candidate_at_every_block_offset(scanner) -> None:  # type: ignore[no-untyped-def]
    """The pre-screen is a superset of the detector: each complete stretch of each misreading,
    twice in a row (a mis-decoded word), anywhere in 1-, 2- and 4-byte strings and across the
    16- and 32-byte block boundaries, is never called clean where count_mojibake finds it."""
    assert _text_speedups is not None
    flagged = 0
    sequences = _complete_sequences()
    for index, sequence in enumerate(sequences):
        offset = index % 37
        contexts = [("a" * offset, " b"), ("東" + "a" * offset, "a"), ("\U0001f600" * offset, "é")]
        for before, after in contexts:
            text = before + sequence * 2 + after
            if quality.count_mojibake(text) > 0:
                flagged += 1
                assert not _text_speedups.text_clean(text), (scanner, text)
                assert quality.dict_values_clean({"f": text}) == 0
                # (without U+FFFD counting, as for a value that also holds U+FFFD)
                assert not _text_speedups.mojibake_clean(text + "\ufffd"), (scanner, text)
    assert flagged > 2 * len(sequences)  # (most of the sweep's texts are flagged ones)


_UKRAINIAN_PIECES = [
    "Він", "Рік", "Сёння", "Ї", "і", "є", "ґ", "ў", "н", "а", "п’є", " ", "—", "«", "»", "Ві",
    "ВІ", "Ð¿", "РџСЂ", "Ñ‚", "Ã©", "â€™", "Ä…", "\ufffd", "東", "\U0001f600", "x",
]  # fmt: skip


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_UKRAINIAN_PIECES + _PIECES), max_size=40).map("".join))
def test_whatever_the_detector_flags_the_pre_screen_flags(text: str) -> None:
    """Whenever count_mojibake finds mojibake or the text holds U+FFFD, neither scanner calls
    the text clean; whenever it finds mojibake, neither calls it free of mojibake."""
    assert _text_speedups is not None
    mojibake = quality.count_mojibake(text) > 0
    damaged = "\ufffd" in text or mojibake
    for avx2 in (True, False):
        _text_speedups.use_avx2(avx2)
        try:
            assert not (damaged and _text_speedups.text_clean(text)), (avx2, text)
            assert not (mojibake and _text_speedups.mojibake_clean(text)), (avx2, text)
        finally:
            _text_speedups.use_avx2(True)


@needs_compiled
def test_genuine_ukrainian_and_belarusian_are_clean(scanner) -> None:  # type: ignore[no-untyped-def]
    """Capitalised words (Він, Рік, Сёння) are no candidates: such text is clean at once."""
    from tests.support.mojibake_corpus import GENUINE

    assert _text_speedups is not None
    for text in GENUINE["uk"] + GENUINE["be"]:
        for padded in (text, "東" + text * 5):
            assert _text_speedups.text_clean(padded), padded
            assert _text_speedups.mojibake_clean(padded + "\ufffd")
            assert not _text_speedups.text_clean(padded + "\ufffd")
            garbled = padded.encode().decode("cp1251", "replace")
            assert not _text_speedups.text_clean(garbled)
            # a candidate for its mojibake, not only for the U+FFFD cp1251 leaves (byte 0x98)
            assert not _text_speedups.mojibake_clean(garbled)


@needs_compiled
def test_configure_refuses_characters_outside_the_block_ranges() -> None:
    """The block scanner's ranges are fixed; a misreading with a lead or continuation
    character outside them is refused, not silently missed."""
    assert _text_speedups is not None
    try:
        # a lead outside the lead ranges (Ω), a continuation character outside the
        # continuation ranges (а, 東), a lead up to U+00FF beyond the 1-byte scanner's (ø)
        for bad in [("Ω", "\u0080", "2"), ("Â", "а", "2"), ("Â", "東", "2"), ("ø", "\u0080", "2")]:
            with pytest.raises(ValueError):
                _text_speedups.configure([(*bad, "", b"")])
        with pytest.raises(ValueError):  # (a character without its byte)
            _text_speedups.configure([("Â", "\u0080", "2", "Â\u0080", b"\xc2")])
    finally:
        _text_speedups.configure(quality._compiled_configuration())
    assert _text_speedups.text_clean("Він") and not _text_speedups.text_clean("Ã©Ã©")


@needs_compiled
def test_the_last_unclean_text_is_remembered_only_under_the_same_configuration() -> None:
    """text_clean answers again at once for the value it last found unclean (the pipeline's
    exact path asks about it twice); configure() forgets that answer."""
    assert _text_speedups is not None
    garbled = "Crème brûlée à la française ".encode().decode("windows-1252") * 20
    other = "".join(reversed(garbled))  # (a different object, with no mojibake)
    assert not _text_speedups.text_clean(garbled) and not _text_speedups.text_clean(garbled)
    assert not _text_speedups.mojibake_clean(garbled)
    assert _text_speedups.text_clean(other)
    try:
        _text_speedups.configure([])  # no misreading: no text has a candidate
        assert _text_speedups.text_clean(garbled) and _text_speedups.mojibake_clean(garbled)
        assert not _text_speedups.text_clean(garbled + "\ufffd")
    finally:
        _text_speedups.configure(quality._compiled_configuration())
    assert not _text_speedups.text_clean(garbled) and not _text_speedups.mojibake_clean(garbled)


@needs_compiled
def test_only_short_unclean_values_are_held() -> None:
    """The value held for the exact path's second question is a reference to it: a short one
    is held until the next unclean value, a huge one (a page body in an item) never, so that
    it is not kept alive after its item; the answers are the same either way."""
    assert _text_speedups is not None
    garbled = "Crème brûlée ".encode().decode("windows-1252")
    short, huge = garbled * 100, garbled * 10_000  # 1,300 and 130,000 characters
    short_references, huge_references = sys.getrefcount(short), sys.getrefcount(huge)
    assert not _text_speedups.text_clean(short) and not _text_speedups.text_clean(short)
    assert sys.getrefcount(short) == short_references + 1  # held
    assert not _text_speedups.text_clean(huge) and not _text_speedups.text_clean(huge)
    assert sys.getrefcount(huge) == huge_references  # not held
    assert sys.getrefcount(short) == short_references + 1  # still held
    assert not _text_speedups.text_clean("Ã©t" * 3)  # another unclean value: short is let go
    assert sys.getrefcount(short) == short_references


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_UKRAINIAN_PIECES + _PIECES), max_size=30).map("".join))
def test_a_value_is_counted_as_the_exact_checks_count_it(text: str) -> None:
    """The pipeline's check of one value, through whichever pre-screens it takes (with or
    without U+FFFD), gives exactly the exact counts."""
    from scrapy_charset.integration.pipeline import check_text

    found = check_text("f", text)
    expected = (text.count("\ufffd"), quality.count_mojibake(text))
    if expected == (0, 0):
        assert found is None
    else:
        assert found is not None
        assert (found.replacement_chars, found.mojibake_chars) == expected


def test_replacement_characters_among_genuine_text_cost_no_exact_check(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A page read with the wrong encoding leaves U+FFFD among genuine text: the mojibake
    compiled pre-screen still clears the text, so the exact count never runs, and the counts
    are right."""
    from scrapy_charset.integration import pipeline
    from scrapy_charset.integration.pipeline import check_text

    genuine = "Він сказав: «Сёння» — Größe, 東京, Привет \ufffd\ufffd"
    if _text_speedups is not None:  # (the pure-Python pre-screen is byte-level: it looks)
        assert quality.mojibake_clean(genuine)
        exact_runs: list[str] = []
        monkeypatch.setattr(
            pipeline, "count_mojibake",
            lambda text, **kw: exact_runs.append(text) or quality.count_mojibake(text, **kw),
        )
        found = check_text("f", genuine)
        assert exact_runs == []
        monkeypatch.undo()
    found = check_text("f", genuine)
    assert found is not None and (found.replacement_chars, found.mojibake_chars) == (2, 0)
    garbled = genuine + " " + "Привет".encode().decode("cp1251")
    assert not quality.mojibake_clean(garbled)
    found = check_text("f", garbled)
    assert found is not None and (found.replacement_chars, found.mojibake_chars) == (2, 6)


@needs_compiled
@pytest.mark.parametrize(
    "padding", ["a", "ö", "東", "\U0001f600"], ids=["ascii", "1-byte", "2-byte", "4-byte"]
)
def test_every_length_and_offset_under_both_scanners(scanner, padding: str) -> None:  # type: ignore[no-untyped-def]
    """Blocks end where the text does: the last one overlaps the one before, and the last
    character is read alone. A suspect at any offset of a text of any length up to two
    32-byte blocks and more is found by both scanners; genuine text full of lead characters
    (Cyrillic, Latin-1 letters) is clean at every length."""
    assert _text_speedups is not None
    for piece in ["Ã©", "\ufffd", "Ð¿", "â€™"]:
        for length in range(70):
            for offset in range(length + 1):
                text = padding * offset + piece + padding * (length - offset)
                damaged = "\ufffd" in text or quality.count_mojibake(text) > 0
                assert not (damaged and _text_speedups.text_clean(text)), (scanner, text)
    genuine = "він зберігає всё, её, Größe, zażółć gęślą — příliš žluťoučký kůň "
    for length in range(1, 2 * len(genuine)):
        text = (genuine * 2)[:length]
        for shown in (text, "東" + text, "\U0001f600" + text):
            assert _text_speedups.text_clean(shown), (scanner, shown)


def _exact_results(text: str) -> tuple[object, ...]:
    return (
        quality.count_mojibake(text),
        quality.find_mojibake(text),
        quality._best_misreading(text),
        quality.repair_spans(text),
    )


def _same_with_the_python_regions(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact checks give the same results with the compiled decoded_regions and tally as
    with the pure-Python references (run_pattern's matches, each decoded by _decoded; the
    candidates _kept keeps, counted)."""
    compiled = [_exact_results(text) for text in texts]
    monkeypatch.setattr(quality, "decoded_regions", quality._decoded_regions_python)
    monkeypatch.setattr(quality, "tally", None)
    assert [_exact_results(text) for text in texts] == compiled
    monkeypatch.undo()


_MISREAD_AS = ["windows-1252", "latin-1", "cp1251", "cp1250"]


@st.composite
def _text_with_misreadings(draw: st.DrawFn) -> str:
    """Genuine sentences of many languages, some of them read as UTF-8 by a single-byte
    encoding (once or twice), separated by ASCII of any length (spans join when close)."""
    from tests.support.mojibake_corpus import GENUINE

    sentences = [s for group in GENUINE.values() for s in group] + _UKRAINIAN_PIECES + _PIECES
    parts = []
    for _ in range(draw(st.integers(1, 8))):
        part = draw(st.sampled_from(sentences))
        for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
            part = part.encode("utf-8").decode(draw(st.sampled_from(_MISREAD_AS)), "replace")
        parts.append(part)
        parts.append(draw(st.sampled_from([" ", "\n", " x" * 40, "a" * 70, "東京" * 20, ""])))
    return "".join(parts)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(_text_with_misreadings())
def test_the_exact_checks_with_compiled_regions_find_what_python_finds(text: str) -> None:
    monkeypatch = pytest.MonkeyPatch()
    try:
        _same_with_the_python_regions([text], monkeypatch)
    finally:
        monkeypatch.undo()


@needs_compiled
def test_the_exact_checks_with_compiled_regions_on_the_mojibake_corpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every sentence of the corpus, genuine and garbled, alone and in a long text among
    others: the same counts, findings, best misreading and repairs (so the same false positives
    and repairs in benchmarks/eval_mojibake.py)."""
    from tests.support.mojibake_corpus import garbled, genuine

    texts = [text for _, text in genuine()] + [text for _, text, _ in garbled()]
    texts += [" ".join(texts[i : i + 25]) + " " + "ascii " * 20 for i in range(0, len(texts), 25)]
    _same_with_the_python_regions(texts, monkeypatch)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(_text_with_misreadings() | _texts | _surrogate_texts)
def test_decoded_regions_are_the_pattern_matches_decoded(text: str) -> None:
    """decoded_regions gives every match of each misreading's region pattern, in order, with
    what _decoded reads it as (None where its bytes are not UTF-8)."""
    assert _text_speedups is not None
    for index in range(len(quality._MISREADINGS)):
        for start in range(0, len(text) + 1, 3):
            expected = quality._decoded_regions_python(text, index, start)
            assert _text_speedups.decoded_regions(text, index, start) == expected, (text, start)
        misreading = quality._MISREADINGS[index]
        assert list(quality._regions(text, index)) == [  # (every batch)
            (m.start(), m.end(), quality._decoded(m.group(), misreading))
            for m in misreading.run_pattern.finditer(text)
        ]


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(_text_with_misreadings() | _texts | _surrogate_texts)
def test_tally_counts_what_the_kept_candidates_count(text: str) -> None:
    """Where the compiled tally answers, it gives what the pure-Python count of _kept gives."""
    assert _text_speedups is not None
    for misreading in quality._MISREADINGS:
        found = _text_speedups.tally(text, misreading.index)
        if found is not None:
            assert found == quality._tally_python(text, misreading), (text, misreading.name)


@needs_compiled
def test_tally_answers_for_garbled_words_and_broken_regions() -> None:
    assert _text_speedups is not None
    text = "Crème brûlée, Größe: Привет, «déjà» — 5 €".encode().decode("windows-1252")
    for padded in (text, "東京 " + text * 3 + "\nx"):
        found = _text_speedups.tally(padded, 0)
        assert found is not None and found[0] > 0
        assert found == quality._tally_python(padded, quality._MISREADINGS[0])
    # Regions that are not UTF-8 are taken stretch by stretch (asked of quality) and counted:
    # C3 80 80; the right double quote whose last byte (0x9D) windows-1252 lacks, in a text of
    # such quotes and apostrophes (the common mojibake that used to cost the whole text in
    # Python).
    quotes = "It doesn’t matter “what” you say, it’s fine. ".encode().decode("cp1252", "ignore")
    assert "â€" in quotes and "\x9d" not in quotes
    for broken in ("Ã\x80\x80", quotes, quotes * 50, "x" + quotes + "Ã©tÃ© Ã"):
        for misreading in quality._MISREADINGS:
            found = _text_speedups.tally(broken, misreading.index)
            assert found is not None
            assert found == quality._tally_python(broken, misreading), (broken, misreading.name)
    assert _text_speedups.tally(quotes, 0)[2] == 1  # (one quote's stretch is cut short)
    assert _text_speedups.tally("ascii only", 0) == (0, 0, 0)
    lone = "KESÄ\u00a0 ja VIELÄ…"  # lone weak candidates, judged by _strong: none kept
    assert _text_speedups.tally(lone, 0) == quality._tally_python(lone, quality._MISREADINGS[0])
    for bad in [("text", 9), ("text", 3), (b"bytes", 0), ("text",)]:
        with pytest.raises((TypeError, ValueError)):
            _text_speedups.tally(*bad)  # type: ignore[arg-type]


@needs_compiled
def test_tally_reads_utf8_as_python_does() -> None:
    """Every lead byte with each continuation byte, and with two and three of the bytes where
    strict UTF-8 draws its lines (overlong forms, surrogates, beyond U+10FFFF, truncated),
    read with each misreading: tally counts what the pure-Python count gives, or leaves it."""
    assert _text_speedups is not None
    edges = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0x41]
    answered = 0
    for misreading in quality._MISREADINGS:
        table = misreading.byte_tables[0]  # (the characters for bytes 0x80-0xFF)

        def read(data: bytes) -> str:
            return "".join(chr(b) if b < 0x80 else table[b - 0x80] for b in data)  # noqa: B023

        for lead in range(0xC0, 0x100):
            sequences = [bytes([lead, c]) for c in range(0x80, 0xC0)]
            sequences += [bytes([lead, a, b]) for a in edges for b in edges]
            sequences += [bytes([lead, a, b, c]) for a in edges for b in edges for c in edges[::3]]
            for data in sequences:
                for text in (read(data), "a" + read(data) + "b", read(data * 2) + " x"):
                    found = _text_speedups.tally(text, misreading.index)
                    if found is not None:
                        answered += 1
                        assert found == quality._tally_python(text, misreading), (text, data)
    assert answered > 10_000


@needs_compiled
def test_tally_judges_a_lone_stretch_by_its_own_neighbours() -> None:
    """tally remembers verdicts on lone candidates: the same stretch among neighbours that
    judge it differently ("cafÃ©s" against "KESÃ© "), in turn and again, counts as the
    pure-Python rules count it each time."""
    assert _text_speedups is not None
    stretches = ["Ã©", "Ã„", "Â°", "Ä…", "Ð¸", "Å\u00a0", "â€™", "Ã\u00a0"]
    around = [("caf", "s"), ("KES", " "), ("", ""), ("A", "B"), ("x ", " y"), ("Ж", "ж")]
    around.append(("\n", "é ü"))
    answered = 0
    for _ in range(2):
        for stretch in stretches:
            for before, after in around:
                text = before + stretch + after
                for misreading in quality._MISREADINGS:
                    found = _text_speedups.tally(text, misreading.index)
                    if found is not None:
                        answered += 1
                        assert found == quality._tally_python(text, misreading), text
    assert answered > 200


@needs_compiled
def test_decoded_regions_of_a_long_text_are_its_garbled_words() -> None:
    assert _text_speedups is not None
    genuine = "東京都の価格は１２３円です。Free shipping on orders over $50. " * 200
    garbled = "Crème brûlée".encode().decode("latin-1")
    text = genuine + garbled + "\ud800" * 300 + "Ã" + genuine
    start = len(genuine)
    assert _text_speedups.decoded_regions(text, 0, 0) == [
        (start + 2, start + 4, "è"), (start + 9, start + 11, "û"), (start + 12, start + 14, "é")
    ]  # fmt: skip
    assert _text_speedups.decoded_regions("Ã\x80" * 100, 0, 0) == [(0, 200, "À" * 100)]
    assert _text_speedups.decoded_regions("Ã\x80\x80" * 100, 0, 0) == [(0, 300, None)]  # (C3 80 80)
    assert _text_speedups.decoded_regions(genuine, 0, 0) == []
    assert _text_speedups.decoded_regions("ascii", 0, 0) == []
    words = "Ã© " * 200  # (batches of 64 regions, each batch from where the last one ended)
    assert len(_text_speedups.decoded_regions(words, 0, 0)) == quality.REGION_BATCH
    assert _text_speedups.decoded_regions(words, 0, 3) == _text_speedups.decoded_regions(
        words, 0, 0
    )[1:] + [(192, 194, "é")]
    assert len(list(quality._regions(words, 0))) == 200
    for bad in [("text", 9, 0), (b"bytes", 0, 0), ("text", "0", 0), ("text", 0), ("t", 0, -1)]:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            _text_speedups.decoded_regions(*bad)  # type: ignore[arg-type]


@needs_compiled
def test_instance_values_is_the_dict_only_where_getattr_reads_every_field_from_it() -> None:
    """The pipeline's fast path for dataclass and attrs items: the instance dict, or None
    wherever getattr (what ItemAdapter reads) could give anything else for a field."""
    import dataclasses

    import attr

    assert _text_speedups is not None
    names = ("title", "note")

    @dataclasses.dataclass
    class Plain:
        title: str
        note: str

    @dataclasses.dataclass(slots=True)
    class Slotted:
        title: str
        note: str

    @attr.s(auto_attribs=True)
    class Attrs:
        title: str
        note: str

    class Hooked(Plain):
        def __getattr__(self, name: str) -> str:  # (a hook for missing names only)
            return "?"

    plain = Plain("a", "b")
    assert _text_speedups.instance_values(plain, names) is plain.__dict__
    assert _text_speedups.instance_values(Attrs("a", "b"), names) == {"title": "a", "note": "b"}
    assert _text_speedups.instance_values(Slotted("a", "b"), names) is None
    assert _text_speedups.instance_values(Hooked("a", "b"), names) is None
    assert _text_speedups.instance_values(plain, ("title",)) is None  # (one more in the dict)
    assert _text_speedups.instance_values(plain, (*names, "extra")) is None
    plain.extra = "c"  # type: ignore[attr-defined]
    assert _text_speedups.instance_values(plain, names) is None
    del plain.extra  # type: ignore[attr-defined]
    for hook in (property(lambda self: "x"), staticmethod(lambda: "x")):
        Plain.note = hook  # type: ignore[assignment,method-assign]
        try:  # a data descriptor (property) shadows the dict; a plain class attribute not
            expected = None if isinstance(hook, property) else plain.__dict__
            assert _text_speedups.instance_values(plain, names) is expected
        finally:
            del Plain.note
    assert _text_speedups.instance_values(plain, names) is plain.__dict__
    assert _text_speedups.instance_values({"title": "a", "note": "b"}, names) is None
    assert _text_speedups.instance_values(3, names) is None
    with pytest.raises(TypeError):
        _text_speedups.instance_values(plain, ["title", "note"])  # type: ignore[arg-type]


_ODD_VALUES = st.one_of(
    _texts,
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), max_size=4),
    st.lists(st.sampled_from([*_PIECES, *_SURROGATE_PIECES]), max_size=8).map("".join),
    st.binary(max_size=4),
    st.integers(),
    st.none(),
    st.lists(st.text(max_size=3), max_size=2),
)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=3), _ODD_VALUES, max_size=6), st.integers(0, 3))
def test_compiled_and_python_checks_on_surrogates_huge_and_non_text_values(
    item: dict[object, object], repeat: int
) -> None:
    """Lone surrogates, values of ~100,000 characters and values that are not text: the
    compiled check is clean only where the exact checks find nothing, and wherever the Python
    reference is clean (it joins the values, so it may refuse more, never less)."""
    if repeat:  # a huge field: the same text ~100,000 characters long, in every width
        item = {
            key: value * (100_000 // max(1, len(value))) if isinstance(value, str) else value
            for key, value in item.items()
        }
    verdict = quality.dict_values_clean(item)
    assert bool(_dict_values_clean_python(item)) <= bool(verdict)
    if verdict:
        for value in item.values():
            assert isinstance(value, str)
            assert "\ufffd" not in value and quality.count_mojibake(value) == 0
    for value in item.values():
        if isinstance(value, str) and quality.text_clean(value):
            assert "\ufffd" not in value and quality.count_mojibake(value) == 0
