"""What importing the Scrapy parts loads, and the patterns compiled on first use.

benchmarks/bench_import.py measures the time; these tests keep the kinds of work that were
moved out of the import from coming back: the spec-literal decoders and the CJK indexes
(loaded with the first page that needs them), Python's codec modules (about 40 of them), and
the patterns only some pages need.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from scrapy_charset._regex import lazy_compile

_CHILD = """
import json, re, sys
import scrapy.crawler, scrapy.http
before, patterns = set(sys.modules), set(re._cache)
import scrapy_charset.integration.addon
import scrapy_charset.integration.middleware
import scrapy_charset.integration.pipeline
compiled = [key[1] for key in set(re._cache) - patterns]
print(json.dumps({
    "modules": sorted(set(sys.modules) - before),
    "patterns": [p.decode("latin-1") if isinstance(p, bytes) else p for p in compiled],
}))
"""


def _import_scrapy_parts() -> dict[str, list[str]]:
    output = subprocess.run(
        [sys.executable, "-c", _CHILD], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(output)  # type: ignore[no-any-return]


def test_scrapy_parts_import_no_tables_reference_decoders_or_codec_modules() -> None:
    loaded = _import_scrapy_parts()
    modules = loaded["modules"]
    assert "scrapy_charset.integration.middleware" in modules
    assert "scrapy_charset.encoding.reference" not in modules
    assert not [m for m in modules if m.startswith("scrapy_charset.encoding.tables.index_")]
    assert "scrapy_charset.encoding.tables.gb18030_ranges_data" not in modules
    assert not [m for m in modules if m.startswith("scrapy_charset.tools")]
    # A codec lookup per Python codec name used to import about 40 of these at start-up; the
    # middleware's stock-Scrapy codec for ASCII bodies (cp1252) is looked up on first use.
    assert not [m for m in modules if m.startswith("encodings.")], modules


# Optional libraries and the parts only some crawls or some pages need: none of them is
# loaded by importing the add-on, the middleware and the pipeline (charset_normalizer is not
# listed: Scrapy itself imports it).
_HEAVY = (
    "chardetng_py",
    "tqdm",
    "ftfy",
    "warcio",
    "fsspec",
    "itemadapter",
    "pydantic",
    "scrapy_charset.encoding.reference",
    "scrapy_charset.encoding.reference_encoders",
    "scrapy_charset.integration.forms",
    "scrapy.statscollectors",  # each crawler imports it when it makes its collector
)


@pytest.mark.parametrize("heavy", _HEAVY)
def test_scrapy_parts_import_no_optional_library_or_rare_part(heavy: str) -> None:
    modules = _import_scrapy_parts()["modules"]
    assert not [m for m in modules if m == heavy or m.startswith(heavy + ".")], heavy


def test_patterns_of_detection_and_iso_2022_jp_compiled_on_first_use() -> None:
    from scrapy_charset.encoding import cjk
    from scrapy_charset.sniffing import detect, letters

    compiled = _import_scrapy_parts()["patterns"]
    for pattern in (letters._NON_ASCII_RUNS, detect._TEXT_NODE, cjk._ISO_NOT_FOR_CODEC):
        source = pattern.pattern
        text = source.decode("latin-1") if isinstance(source, bytes) else source
        assert text not in compiled


def test_lazy_pattern_acts_as_the_compiled_one() -> None:
    source = rb"(?P<word>[a-z]+)|\d"
    lazy, real = lazy_compile(source, re.IGNORECASE), re.compile(source, re.IGNORECASE)
    data = b"Ab 12 cd"
    assert lazy.search(data, 2).span() == real.search(data, 2).span()  # type: ignore[union-attr]
    assert lazy.findall(data) == real.findall(data)
    assert [m.span() for m in lazy.finditer(data)] == [m.span() for m in real.finditer(data)]
    assert lazy.sub(b"-", data) == real.sub(b"-", data)
    assert lazy.split(data) == real.split(data)
    assert lazy.match(data) is not None and lazy.fullmatch(b"x") is not None
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        real.pattern,
        real.flags,
        real.groups,
        real.groupindex,
    )
    # Once used, lookups no longer go through the stand-in's __getattr__.
    assert "__getattr__" not in type(lazy).__dict__


def test_lazy_pattern_compiles_on_first_use_not_before() -> None:
    lazy = lazy_compile("(unbalanced")  # no error yet: nothing compiled
    with pytest.raises(re.error):
        lazy.search("x")
