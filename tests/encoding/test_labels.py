"""Label lookup against the standard's own encodings.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, get_encoding, lookup

SPEC = json.loads(
    (Path(__file__).parents[2] / "vendor" / "whatwg" / "encodings.json").read_text("utf-8")
)
SPEC_LABELS = [
    (label, enc["name"]) for group in SPEC for enc in group["encodings"] for label in enc["labels"]
]


def test_all_228_labels_present() -> None:
    assert len(SPEC_LABELS) == 228
    assert sum(len(e.labels) for e in ALL_ENCODINGS) == 228
    assert len(ALL_ENCODINGS) == 40


@pytest.mark.parametrize("label,name", SPEC_LABELS)
def test_every_label(label: str, name: str) -> None:
    enc = lookup(label)
    assert enc is not None and enc.name == name
    # ASCII case-insensitive, ASCII whitespace stripped.
    assert lookup(f" \t\n\f\r{label.upper()}\r\n ") is enc
    assert lookup(label.encode("ascii")) is enc


@pytest.mark.parametrize(
    "label",
    [
        "\u212aoi8-r",  # KELVIN SIGN lowercases to "k" outside ASCII
        "\u0130so-8859-1",  # LATIN CAPITAL I WITH DOT ABOVE
        "utf-7",
        "utf7",
        "utf-32",
        "cp037",
        "latin_1",
        "shift_jis2004",
        "utf-8\x00",
        "\xa0utf-8",  # NBSP is not ASCII whitespace
        "\vutf-8",  # nor is VT
        "",
        " ",
        "x" * 1_000_000,
        " " * 1_000_000 + "utf-8x",
    ],
)
def test_non_labels(label: str) -> None:
    assert lookup(label) is None


def test_huge_whitespace_padding_still_a_label() -> None:
    assert lookup(" " * 100_000 + "utf-8" + "\t" * 100_000) is get_encoding("utf-8")


@pytest.mark.parametrize("bad", [None, 1, 1.5, ["utf-8"], object()])
def test_non_string_label_is_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        lookup(bad)  # type: ignore[arg-type]


def test_get_encoding() -> None:
    enc = get_encoding("sjis")
    assert isinstance(enc, Encoding) and enc.name == "Shift_JIS"
    assert get_encoding(enc) is enc
    with pytest.raises(LookupError):
        get_encoding("utf-7")


def test_python_codecs_exist() -> None:
    import codecs

    for enc in ALL_ENCODINGS:
        codecs.lookup(enc.python_codec)
