"""What importing the Scrapy parts loads, and the patterns compiled on first use.

benchmarks/bench_import.py measures the time; these tests keep the kinds of work that were
moved out of the import from coming back: the spec-literal decoders and the CJK indexes
(loaded with the first page that needs them), Python's codec modules (about 40 of them), and
the patterns only some pages need.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys

import pytest

from scrapy_charset._regex import lazy_compile

_CHILD = """
import builtins, json, re, sys
import scrapy.crawler, scrapy.http
before, patterns = set(sys.modules), set(re._cache)
evaluated, compile_ = [], builtins.compile
def counting_compile(source, filename, mode, *args, **kwargs):
    if mode == "eval":  # (a module's own bytecode is compiled in "exec" mode)
        evaluated.append(source)
    return compile_(source, filename, mode, *args, **kwargs)
builtins.compile = counting_compile
import scrapy_charset.integration.addon
import scrapy_charset.integration.middleware
import scrapy_charset.integration.pipeline
builtins.compile = compile_
compiled = [key[1] for key in set(re._cache) - patterns]
print(json.dumps({
    "modules": sorted(set(sys.modules) - before),
    "patterns": [p.decode("latin-1") if isinstance(p, bytes) else p for p in compiled],
    "evaluated": evaluated,
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


def test_scrapy_parts_import_compiles_no_annotation() -> None:
    # typing.NamedTuple compiled each field's annotation (a string under ``from __future__
    # import annotations``) into a ForwardRef: 75 compiles for the 13 records these modules
    # define. The package's NamedTuple (scrapy_charset._namedtuple) keeps them as strings.
    assert _import_scrapy_parts()["evaluated"] == []


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
    # detection's letter statistics, the package's largest module, and the rules for labels no
    # browser knows: loaded with the first undeclared single-byte page or unknown label
    "scrapy_charset.sniffing.letters",
    "scrapy_charset.sniffing.unknown_labels",
    "scrapy.statscollectors",  # each crawler imports it when it makes its collector
)


@pytest.mark.parametrize("heavy", _HEAVY)
def test_scrapy_parts_import_no_optional_library_or_rare_part(heavy: str) -> None:
    modules = _import_scrapy_parts()["modules"]
    assert not [m for m in modules if m == heavy or m.startswith(heavy + ".")], heavy


# Pages whose decision needs the modules loaded on first use: undeclared single-byte text
# (Russian windows-1251, Czech with a C1 byte in the window, Polish
# windows-1250 with a Polish TLD), a label no browser knows, undeclared ISO-2022-JP.
_FIRST_USE_PAGES = [
    ("<p>Привет, как дела? Это русский текст.</p>".encode("windows-1251"), None, None),
    ("<p>Příliš žluťoučký kůň úpěl ďábelské ódy.</p>".encode("iso-8859-2") + b"\x85", None, None),
    ("<p>Zażółć gęślą jaźń, to jest tekst po polsku.</p>".encode("windows-1250"), None, "http://a.pl/"),
    ("<p>Café, crème brûlée</p>".encode("windows-1252"), "text/html; charset=nope", None),
    ("<p>日本語のテキスト</p>".encode("iso-2022-jp"), None, None),
]

_FIRST_USE_CHILD = """
import json, sys
import scrapy_charset.integration.middleware
from scrapy_charset.sniffing import decode_html
loaded = "scrapy_charset.sniffing.letters" in sys.modules
pages = [(bytes.fromhex(body), header, url) for body, header, url in json.loads(sys.argv[1])]
results = []
for body, header, url in pages:
    text, decision = decode_html(body, header, url=url)
    results.append([text, decision.encoding.name, decision.source.value])
print(json.dumps({"loaded_before": loaded, "results": results}))
"""


def test_decisions_on_first_use_of_the_lazily_loaded_modules() -> None:
    # In a fresh process, the first pages that load the letter statistics and the rules for
    # unknown labels get the very texts and decisions they get here, where the modules are
    # loaded already.
    from scrapy_charset.sniffing import decode_html, letters, unknown_labels  # noqa: F401

    argument = json.dumps([[body.hex(), header, url] for body, header, url in _FIRST_USE_PAGES])
    output = subprocess.run(
        [sys.executable, "-c", _FIRST_USE_CHILD, argument],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    child = json.loads(output)
    assert child["loaded_before"] is False
    expected = []
    for body, header, url in _FIRST_USE_PAGES:
        text, decision = decode_html(body, header, url=url)
        expected.append([text, decision.encoding.name, decision.source.value])
    assert child["results"] == expected
    names = [name for _, name, _ in expected]
    # (the Czech page's byte 0x85 rules ISO-8859-2 out: windows-1250 reads it as "…")
    assert names == ["windows-1251", "windows-1250", "windows-1250", names[3], "ISO-2022-JP"]


def test_choose_single_byte_candidates_default_to_all() -> None:
    from scrapy_charset.sniffing.detect import choose_single_byte
    from scrapy_charset.sniffing.letters import CANDIDATES

    for text, codec in (("Příliš žluťoučký kůň", "iso-8859-2"), ("Привет мир", "cp1251")):
        sample = text.encode(codec)
        for tld in (None, "cz", "ru"):
            assert choose_single_byte(sample, tld) == choose_single_byte(sample, tld, CANDIDATES)


def test_iso_2022_jp_single_byte_state_tables_built_on_first_use() -> None:
    # The spec's ISO-2022-JP decoder: ASCII and Roman read 0x00-0x7F but 0x0E, 0x0F and ESC
    # as themselves (Roman: 0x5C is U+00A5, 0x7E U+203E), Katakana 0x21-0x5F as U+FF61-U+FF9F;
    # every other byte is an error. The tables were built at import; now on first use.
    from scrapy_charset.encoding import cjk, decode, get_encoding

    plain = [chr(b) if b < 0x80 and b not in (0x0E, 0x0F, 0x1B) else "\ufffd" for b in range(256)]
    roman = list(plain)
    roman[0x5C], roman[0x7E] = "\u00a5", "\u203e"
    katakana = [chr(0xFF61 + b - 0x21) if 0x21 <= b <= 0x5F else "\ufffd" for b in range(256)]
    assert cjk._single_byte_state_table(cjk.ASCII) == "".join(plain)
    assert cjk._single_byte_state_table(cjk.ROMAN) == "".join(roman)
    assert cjk._single_byte_state_table(cjk.KATAKANA) == "".join(katakana)
    text = decode(b"a\\~\x1b(J\\~\x1b(I\x21\x5f\x60\x1b(Bz", get_encoding("ISO-2022-JP"))
    assert text == "a\\~\u00a5\u203e\uff61\uff9f\ufffdz"


def test_patterns_of_detection_and_iso_2022_jp_compiled_on_first_use() -> None:
    from scrapy_charset.encoding import cjk, fast
    from scrapy_charset.integration import response
    from scrapy_charset.sniffing import content_type, detect, late_meta, letters

    # (the package's prescan is the function of that name)
    prescan = importlib.import_module("scrapy_charset.sniffing.prescan")
    compiled = _import_scrapy_parts()["patterns"]
    # Also the Python steps the compiled <meta> scans replace on ordinary pages (the tokenizer's
    # tag and script states, the prescan's attribute steps), the full MIME type parse (a header
    # with quoted strings or several values) and URL escaping: none of the per-response
    # benchmark's 23 kinds of page uses them.
    for pattern in (
        letters._NON_ASCII_RUNS,
        detect._TEXT_NODE,
        cjk._ISO_NOT_FOR_CODEC,
        late_meta._ATTRIBUTE,
        late_meta._TAG_NAME,
        late_meta._COMMENT_END,
        late_meta._SCRIPT_DATA,
        late_meta._SCRIPT_ESCAPED,
        late_meta._SCRIPT_DOUBLE_ESCAPED,
        prescan._ATTRIBUTE_NAME_REST,
        prescan._UNQUOTED_VALUE_REST,
        prescan._SKIP_WHITESPACE_AND_SLASH,
        prescan._TAG_START,
        prescan._TAG_NAME_END,
        content_type._QUOTED_BODY_PART,
        content_type._ESCAPE,
        content_type._NOT_QUOTE_OR_COMMA,
        content_type._PARAMETER_START,
        content_type._NOT_SEMICOLON_OR_EQUALS,
        content_type._NOT_SEMICOLON,
        fast._HIGH_BYTE,
        response._CONTROL,
    ):
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
