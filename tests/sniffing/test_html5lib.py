"""The html5lib-tests encoding suite.

Every case passes through the spec's :func:`prescan` (windows-1252 when it finds nothing). The
``scripted/`` cases need a parser that runs ``document.write`` and are not sniffing cases.

:func:`sniff` follows Chromium, which was measured to ignore a ``<meta>`` inside ``<script>``
or ``<style>`` (also one a script writes with ``document.write``): the three cases whose only
``<meta>`` is there give windows-1252. All others give the suite's encoding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_charset.encoding import WINDOWS_1252, lookup
from scrapy_charset.sniffing import prescan, sniff

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


# The cases whose only <meta> is in <script> or <style>: Chromium 156 gives windows-1252.
META_ONLY_IN_RAW_TEXT = {"tests1-54", "tests1-55", "tests1-56"}


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_prescan_case(data: bytes, expected: str) -> None:
    # A BOM is the step before the prescan.
    # The spec lets the prescan run past 1,024 bytes; the suite has <meta> after 8 KB.
    bom = data.startswith(b"\xef\xbb\xbf")
    found = sniff(data).encoding if bom else prescan(data, limit=len(data))
    assert (found or WINDOWS_1252) == lookup(expected)


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_sniff_case(request: pytest.FixtureRequest, data: bytes, expected: str) -> None:
    decision = sniff(data, detector=None)
    case = request.node.callspec.id
    if case in META_ONLY_IN_RAW_TEXT:
        assert (b"<script" in data or b"<style" in data) and data.count(b"<meta") == 1
        assert decision.encoding == WINDOWS_1252
    else:
        assert decision.encoding == lookup(expected)
