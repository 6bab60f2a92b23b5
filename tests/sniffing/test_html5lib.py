"""The html5lib-tests encoding suite: every document sniffs to the expected encoding.

The ``scripted/`` cases need a parser that runs ``document.write`` and are not sniffing
cases; every other case is run through :func:`sniff` with no transport-layer information.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_charset.encoding import lookup
from scrapy_charset.sniffing import sniff

SUITE = Path(__file__).resolve().parent.parent / "data" / "html5lib-tests" / "encoding"


def _cases() -> list[pytest.param]:
    cases = []
    for path in sorted(SUITE.glob("*.dat")):
        blocks = path.read_bytes().split(b"#data\n")[1:]
        for number, block in enumerate(blocks):
            data, separator, expected = block.partition(b"\n#encoding\n")
            assert separator, f"malformed case {number} in {path.name}"
            label = expected.strip().split(b"\n")[0].decode("ascii")
            cases.append(pytest.param(data, label, id=f"{path.stem}-{number}"))
    return cases


CASES = _cases()


def test_suite_is_complete() -> None:
    # tests1.dat has 59 cases, tests2.dat 22, test-yahoo-jp.dat 1.
    assert len(CASES) == 82


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_html5lib_encoding_case(data: bytes, expected: str) -> None:
    decision = sniff(data, detector=None)
    assert decision.encoding == lookup(expected)
