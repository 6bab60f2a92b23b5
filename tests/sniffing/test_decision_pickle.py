"""Encodings and decisions survive pickle (disk queues, scrapy-redis, multiprocessing) small and
as the same encoding singletons, so ``decision.encoding is UTF_8`` holds after a round trip."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, UTF_8, Encoding, lookup
from scrapy_charset.sniffing import Decision, Declaration, Source, sniff


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_encoding_comes_back_as_itself(protocol: int) -> None:
    for encoding in ALL_ENCODINGS:
        data = pickle.dumps(encoding, protocol)
        assert pickle.loads(data) is encoding
        assert len(data) < 120  # the name, not the labels
    assert copy.copy(UTF_8) is UTF_8 and copy.deepcopy(UTF_8) is UTF_8


def test_an_encoding_made_by_hand_is_pickled_field_by_field() -> None:
    look_alike = Encoding("UTF-8", ("x",), "", "latin-1", False)
    made_up = Encoding("x-made-up", ("x-made-up",), "", "latin-1", True)
    for encoding in (look_alike, made_up):
        back = pickle.loads(pickle.dumps(encoding))
        assert back is not UTF_8
        assert (back.name, back.labels, back.python_codec) == (
            encoding.name,
            encoding.labels,
            encoding.python_codec,
        )


def test_a_decision_pickles_small_with_its_singletons() -> None:
    decision = sniff(b"<meta charset=shift_jis><p>x", [b"text/html; charset=utf-8"])
    assert decision.source is Source.HEADER and len(decision.overridden) == 1
    decision = Decision(
        decision.encoding,
        decision.source,
        decision.label,
        (*decision.overridden, Declaration(Source.META, "no-such", None)),
        decision.confident,
    )
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(decision, protocol)
        back = pickle.loads(data)
        assert back == decision
        assert back.encoding is UTF_8 and back.source is Source.HEADER
        assert back.overridden[0].encoding is lookup("shift_jis")
        assert back.overridden[1].encoding is None
        assert len(data) < (400 if protocol < 4 else 300)
    plain = pickle.dumps(sniff(b"<p>x", None))
    assert len(plain) < 200
    assert copy.deepcopy(decision).encoding is UTF_8


def test_the_record_is_plain_json() -> None:
    decision = Decision(
        lookup("sjis"),  # type: ignore[arg-type]
        Source.META,
        " SJIS",
        (Declaration(Source.HEADER, "nope", None),),
    )
    record = decision.as_record()
    assert record == {"encoding": "Shift_JIS", "source": "meta", "label": " SJIS"}
    assert json.loads(json.dumps(record)) == record
    assert Decision(UTF_8, Source.UTF8).as_record() == {
        "encoding": "UTF-8",
        "source": "utf8",
        "label": None,
    }
