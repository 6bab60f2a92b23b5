"""Pages labelled with names no browser knows, against what Chromium did with them.

Fixture: ``tests/data/chromium/unknown_labels.jsonl.gz``, recorded by
``scripts/chromium/record_unknown_labels.py``: text in DOS and Mac code pages, KOI8-T, KZ-1048,
Johab, and in standard encodings under names the standard lacks (``latin9``, ``cp949``,
``win-1251``, ...), labelled in ``<meta>``, in the header, or not at all. Chromium ignores such
labels and runs its detector, as here.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from scrapy_charset.encoding import decode, lookup
from scrapy_charset.sniffing import Source, decode_html
from scrapy_charset.sniffing.detect import whatwg_encoding_for
from tests.support.chromium import read_recording

BROWSER, DOCUMENTS = read_recording("unknown_labels.jsonl.gz")

# Labelled pages in a standard encoding where Chromium's reading is not followed: long German
# Mac text is macintosh in Chromium, windows-1252 here (short German Mac text is windows-1252
# in both; docs/decision.md).
NOT_AS_CHROMIUM = {"meta-mac-roman-de-long", "header-mac-roman-de-long"}
# Encodings no browser has whose text Chromium's detector reads as one encoding, and so does
# the project (valid CJK, a Cyrillic code page close to a standard one).
SAME_AS_CHROMIUM = {"johab", "cp1125", "koi8-t", "kz-1048", "pt154", "cp737", "cp862"}


def _label(document: dict[str, Any]) -> str:
    return document["description"].split(" labelled ")[-1].split(" (")[0]


def _decode(document: dict[str, Any]) -> tuple[bytes, str, Any]:
    body = base64.b64decode(document["body_b64"])
    headers = [value for name, value in document["headers"] if name.lower() == "content-type"]
    text, decision = decode_html(body, headers or None, url=document["url"])
    return body, text, decision


def test_fixture_is_complete() -> None:
    assert BROWSER["browser"] == "Chromium"
    assert len(DOCUMENTS) >= 200
    labels = {_label(d) for d in DOCUMENTS if d["group"] == "meta"}
    assert len(labels) >= 30
    # No label of the fixture is one the Encoding Standard knows.
    assert all(lookup(label) is None for label in labels)
    # Chromium reads the same bytes the same with the label in <meta>, in the header or
    # nowhere: the label changes nothing (two long pages differ by the <meta> bytes alone).
    by_text: dict[str, set[str]] = {}
    for document in DOCUMENTS:
        key = document["id"].split("-", 1)[1]
        by_text.setdefault(key, set()).add(document["chromium"]["charset"])
    assert sum(len(charsets) > 1 for charsets in by_text.values()) <= 2


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d["id"])
def test_unknown_labels_are_ignored_as_chromium_ignores_them(document: dict[str, Any]) -> None:
    body, text, decision = _decode(document)
    assert decision.source in (Source.DETECTION, Source.UTF8, Source.TLD, Source.DEFAULT)
    if document["group"] != "none":
        assert [d.label for d in decision.overridden] == [_label(document)]
    label = _label(document) if document["group"] != "none" else document["id"].split("-")[1]
    chromium = lookup(document["chromium"]["charset"])
    assert chromium is not None
    true = whatwg_encoding_for(document["true_encoding"])
    if document["id"] in NOT_AS_CHROMIUM:
        assert text == decode(body, lookup("windows-1252"))
    elif true is not None and (decode(body, chromium) == decode(body, true)):
        # Chromium's detector found the true text: so does the project.
        assert text == decode(body, true)
    elif true is not None and document["group"] == "none":
        # Undeclared: the true text, where Chromium shows mojibake (latin9 French `€ œ`,
        # UTF-8, Mac Roman and Mac Cyrillic), as for every undeclared page.
        assert text == decode(body, true)
    elif true is not None:
        # A label no browser knows: Chromium's reading, mojibake included (`utf8mb4` UTF-8 as
        # windows-1252, `latin9` French as windows-1252, `mac-cyrillic` as windows-1251).
        assert text == decode(body, chromium)
    elif label in SAME_AS_CHROMIUM:
        assert text == decode(body, chromium)


def test_text_of_no_browser_encoding_reads_mostly_as_chromium() -> None:
    # DOS and Mac code pages: no reading is right and Chromium's guesses are noisy (the same
    # Czech text is windows-1250, Hungarian windows-1252; long German macintosh). Bytes that
    # read as no language fall back to windows-1252 as in Chromium, valid CJK stays CJK.
    agree = total = 0
    for document in DOCUMENTS:
        if whatwg_encoding_for(document["true_encoding"]) is not None:
            continue
        body, text, _ = _decode(document)
        chromium = lookup(document["chromium"]["charset"])
        assert chromium is not None
        total += 1
        agree += text == decode(body, chromium)
    assert total >= 100
    # Measured: 79 of 132 before the rules found on unknown_labels_more.jsonl.gz, 97 after.
    assert agree >= 0.73 * total, (agree, total)


def test_a_label_no_browser_knows_reads_as_chromium_shows_it() -> None:
    # UTF-8 labelled utf8mb4 (MySQL's name): Chromium ignores the label and never detects
    # UTF-8 over HTTP, so the page is the TLD's legacy encoding or windows-1252.
    page = "<html><head><meta charset=utf8mb4></head><body><p>Zürich – Genève</p></body></html>"
    body = page.encode("utf-8")
    text, decision = decode_html(body, url="http://www.example.com/")
    assert (decision.encoding, decision.source) == (lookup("windows-1252"), Source.DEFAULT)
    assert text == body.decode("cp1252")
    decision = decode_html(body, url="http://www.example.ru/")[1]
    assert (decision.encoding, decision.source) == (lookup("windows-1251"), Source.TLD)
    # In the header too; without the label the page is an undeclared page: its true text.
    unlabelled = body.replace(b"<meta charset=utf8mb4>", b"")
    header = ["text/html; charset=utf8mb4"]
    assert decode_html(unlabelled, header)[1].encoding == lookup("windows-1252")
    assert decode_html(unlabelled)[0] == unlabelled.decode("utf-8")
    # The user's own forced label is no label of the page: it is ignored, the true text stays.
    assert decode_html(unlabelled, forced="utf8mb4")[0] == unlabelled.decode("utf-8")


UTF8_PAGE = "<p>Größe, Привет, 東京</p>".encode()


@pytest.mark.parametrize(
    "content_type, prefix",
    [
        ('text/html; charset=""', b""),
        ('text/html; charset=" "', b""),
        ("text/html", b'<meta charset="">'),
        ("text/html", b"<meta charset=' \t'>"),
        ("text/html", b'<meta http-equiv="Content-Type" content="text/html; charset=\'\'">'),
    ],
)
def test_an_empty_label_counts_as_no_label(content_type: str, prefix: bytes) -> None:
    """An empty label names no encoding, known or unknown: the page reads as with no label
    at all (``charset=``), not as a page labelled with a name no browser knows."""
    body = prefix + UTF8_PAGE
    unlabelled = decode_html(body, "text/html; charset=", url="http://example.com/")
    text, decision = decode_html(body, content_type, url="http://example.com/")
    assert (text, decision.encoding, decision.source) == (
        unlabelled[0], unlabelled[1].encoding, unlabelled[1].source
    )
    assert "Größe, Привет, 東京" in text
    # while a non-empty unknown label is read as Chromium shows it (windows-1252 here)
    junk = decode_html(UTF8_PAGE, "text/html; charset=utf8mb4", url="http://example.com/")
    assert junk[1].encoding.name == "windows-1252"


@pytest.mark.parametrize("ascii_before", [0, 70_000, 200_000])
def test_mac_text_is_judged_on_the_bytes_the_detector_read(ascii_before: int) -> None:
    # French Mac text (`ç` is 0x8D, a byte windows-1252 lacks) stays macintosh under a label no
    # browser knows, also where it starts after 64 KB of ASCII markup: the detector reads the
    # text there, so the check for bytes windows-1252 lacks must read the same window (it read
    # the first 64 KB and found none: windows-1252 mojibake).
    french = "Le garçon français reçoit une leçon à la façade du château, déjà à l'école. " * 20
    body = (
        b'<html><head><meta charset="mac-roman"></head><body>'
        + b"<p>text</p>\n" * (ascii_before // 12)
        + b"<p>" + french.encode("mac_roman") + b"</p></body></html>"
    )
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("macintosh"), Source.DETECTION)
    assert french in text


# More recordings, made to find the rules of Chromium's detector
# (``scripts/chromium/probe_unknown_labels.py``): 755 pages, 52 labels no browser knows, short,
# medium and long, from 127.0.0.1 and from the language's country TLD; rules were written on the
# ``dev`` half of the (label, language) pairs and checked on the ``held-out`` half.
MORE_BROWSER, MORE = read_recording("unknown_labels_more.jsonl.gz")
# Mac Roman Spanish, medium and long, and a short Italian text: Chromium's detector finds
# macintosh (the true text), the project shows windows-1252 as for short Spanish Mac text (no
# byte windows-1252 lacks).
MORE_NOT_AS_CHROMIUM = {"meta-mac-roman-es-medium-ip", "meta-mac-roman-es-long-ip",
                        "meta-mac-roman-es-long-es", "fresh-mac-roman-it-short-ip",
                        "fresh-mac-roman-it-short-it"}  # fmt: skip


def _agreement(documents: list[dict[str, Any]]) -> tuple[int, int]:
    agree = 0
    for document in documents:
        body, text, _ = _decode(document)
        chromium = lookup(document["chromium"]["charset"])
        assert chromium is not None
        agree += text == decode(body, chromium)
    return agree, len(documents)


def test_more_recordings_are_complete() -> None:
    assert MORE_BROWSER["browser"] == "Chromium"
    assert len(MORE) >= 980
    labels = {_label(d) for d in MORE}
    assert len(labels) >= 45
    assert all(lookup(label) is None for label in labels)
    assert {d["split"] for d in MORE} == {"dev", "held-out", "fresh"}
    hosts = {d["url"].split("/")[2].split(":")[0] for d in MORE}
    assert "127.0.0.1" in hosts and len(hosts) > 30


@pytest.mark.parametrize("document", MORE, ids=lambda d: f'{d["id"]}-{d["url"].split(":")[1][2:]}')
def test_more_unknown_labels_are_ignored(document: dict[str, Any]) -> None:
    body, text, decision = _decode(document)
    assert decision.source in (Source.DETECTION, Source.UTF8, Source.TLD, Source.DEFAULT)
    assert [d.label for d in decision.overridden] == [_label(document)]
    true = whatwg_encoding_for(document["true_encoding"])
    chromium = lookup(document["chromium"]["charset"])
    assert chromium is not None
    if document["id"] in MORE_NOT_AS_CHROMIUM:
        assert text == decode(body, lookup("windows-1252")) != decode(body, chromium)
    elif true is not None and decode(body, chromium) == decode(body, true):
        # Chromium's detector found the true text: so does the project.
        assert text == decode(body, true)


@pytest.mark.parametrize(
    "split, floor",
    # Measured before the rules found with these recordings: 293/410, 255/335 and 141/244;
    # after: 343/410, 282/335 and 174/244 (the fresh texts were recorded after the rules);
    # with the rules of unknown_labels_classes.jsonl.gz (written on dev, fresh and those
    # recordings): dev 364, fresh 212; held-out 300, measured once the rules were written.
    [("dev", 364), ("held-out", 300), ("fresh", 212)],
)
def test_more_recordings_read_mostly_as_chromium(split: str, floor: int) -> None:
    agree, total = _agreement([d for d in MORE if d["split"] == split])
    assert agree >= floor, (agree, total)


def test_iso_8859_14_shows_as_windows_1252() -> None:
    # Chromium's detector has no ISO-8859-14: long Welsh text labelled `latin8` is
    # windows-1252 there (`ŵ ŷ` as `ü þ`), so it is here.
    welsh = [d for d in MORE if d["id"].startswith("meta-latin8-cy-long")]
    assert welsh and all(d["chromium"]["charset"] == "windows-1252" for d in welsh)
    for document in welsh:
        body, text, decision = _decode(document)
        assert decision.encoding == lookup("windows-1252")
        assert text == decode(body, lookup("windows-1252"))


def _recorded(prefix: str) -> list[dict[str, Any]]:
    found = [d for d in MORE if d["id"].startswith(prefix)]
    assert found, prefix
    return found


@pytest.mark.parametrize(
    "prefix, shown",
    [
        # Polish, Slovak, Hungarian in DOS 852 or Mac Central European: windows-1250.
        ("meta-cp852-pl-long-ip", "windows-1250"),
        ("meta-cp852-sk-medium-ip", "windows-1250"),
        ("meta-mac-latin2-hu-long-ip", "windows-1250"),
        ("meta-mac-latin2-cs-long-ip", "windows-1250"),
        # Latvian and Lithuanian in Mac Central European: windows-1257.
        ("meta-mac-latin2-lv-medium-ip", "windows-1257"),
        ("meta-mac-latin2-lt-long-ip", "windows-1257"),
        # Danish and Norwegian Mac Roman (`æ ø` are `ľ ż` in windows-1250, `¾ ¿` in
        # windows-1252): windows-1250.
        ("meta-mac-roman-da-short-ip", "windows-1250"),
        ("meta-mac-roman-no-long-no", "windows-1250"),
        # DOS Cyrillic 855 (IBM866 box drawing inside words): windows-1252, also on .ua.
        ("meta-cp855-uk-long-ip", "windows-1252"),
        ("meta-cp855-uk-short-ua", "windows-1252"),
        # Swedish, Norwegian, French, Kurdish DOS text of some length: macintosh (windows-1252
        # reads `å` as `†`, `é` as `‚`); German and Spanish DOS text: windows-1252.
        ("meta-cp437-sv-medium-ip", "macintosh"),
        ("meta-cp865-no-long-no", "macintosh"),
        ("meta-cp437-fr-long-ip", "macintosh"),
        ("meta-cp857-ku-short-ip", "macintosh"),
        ("meta-cp850-de-long-ip", "windows-1252"),
        ("meta-cp437-es-long-ip", "windows-1252"),
    ],
)
def test_code_pages_no_browser_has_read_as_chromium(prefix: str, shown: str) -> None:
    for document in _recorded(prefix):
        assert document["chromium"]["charset"] == shown
        body, text, decision = _decode(document)
        assert decision.encoding == lookup(shown)
        assert text == decode(body, lookup(shown))


def _labelled(text: str, codec: str, label: str) -> bytes:
    return f'<html><head><meta charset="{label}"></head><body><p>{text}</p></body></html>'.encode(
        codec
    )


POLISH = (
    "W sobotę biblioteka miejska jest otwarta do południa. Dzieci mogą tam czytać książki, "
    "a dorośli przeglądać gazety, ale nie wolno jeść ani pić przy stołach."
)


def test_family_of_the_words_decides_for_text_in_no_browser_encoding() -> None:
    body = _labelled(POLISH, "cp852", "cp852")
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("windows-1250"), Source.DETECTION)
    assert text == decode(body, lookup("windows-1250"))
    # The same words in windows-1250 bytes: the detector reads them (the true text).
    body = _labelled(POLISH, "cp1250", "win-1250")
    assert POLISH in decode_html(body)[0]


def test_family_of_the_words_needs_a_detector() -> None:
    # With detection turned off (no detector), the label no browser knows leaves the TLD's
    # default or windows-1252, as before.
    body = _labelled(POLISH, "cp852", "cp852")
    decision = decode_html(body, detector=None)[1]
    assert (decision.encoding, decision.source) == (lookup("windows-1252"), Source.DEFAULT)
    decision = decode_html(body, url="http://example.pl/", detector=None)[1]
    assert (decision.encoding, decision.source) == (lookup("ISO-8859-2"), Source.TLD)


def test_words_of_no_single_family_decide_nothing() -> None:
    # Swedish DOS text: its few function words are not of a windows-1250 language; the
    # detector finds no language, so windows-1252 as before.
    swedish = "Stadsbiblioteket är öppet även på lördagar. Barnen kan läsa böcker och spela spel."
    text, decision = decode_html(_labelled(swedish, "cp437", "cp437"))
    assert decision.encoding == lookup("windows-1252")


def test_english_words_are_of_no_family() -> None:
    """English shares "to", "do" and "by" with Czech and Slovak: English text in a DOS code
    page under a label no browser knows stays windows-1252, as Chromium shows it."""
    from scrapy_charset.sniffing.unknown_labels import _family_of_words

    english = b"Press any key to continue. Written by John, do not copy. Back to menu."
    assert _family_of_words(english) is None
    assert _family_of_words(b"How to do it by hand, step by step") is None
    czech = "Dnes je to den, kdy se do města vrátí jaro a na náměstí bude trh.".encode("cp852")
    assert _family_of_words(czech) == "windows-1250"


# Recordings made to settle classes the others left unclear (``scripts/chromium/
# probe_classes.py``): Russian DOS text with tables, Mac Roman text with and without a bullet,
# English, Slovak, Slovene and Czech DOS text, DOS 855 text; short and long, from 127.0.0.1
# and from the country's TLD.
CLASSES_BROWSER, CLASSES = read_recording("unknown_labels_classes.jsonl.gz")


def _classes(prefix: str) -> list[dict[str, Any]]:
    found = [d for d in CLASSES if d["id"].startswith(prefix)]
    assert found, prefix
    return found


def test_class_recordings_read_mostly_as_chromium() -> None:
    assert CLASSES_BROWSER["browser"] == "Chromium"
    assert len(CLASSES) == 140
    # Measured: 36 of the first 92 before the rules these recordings settled, 77 after; 102 of
    # the first 120 with the rules for DOS 869 and Mac Greek (whose 28 pages were recorded
    # after); 112 of all 140 with the rule for Latvian DOS 775.
    agree, total = _agreement(CLASSES)
    assert agree >= 112, (agree, total)


def _shows(documents: list[dict[str, Any]], shown: str) -> None:
    for document in documents:
        assert document["chromium"]["charset"] == shown, document["id"]
        body, text, decision = _decode(document)
        assert decision.encoding == lookup(shown), document["id"]
        assert text == decode(body, lookup(shown))


@pytest.mark.parametrize(
    "prefix",
    ["probe-mac-roman-de-bullet", "probe-mac-roman-sv-bullet", "probe-mac-roman-fi-bullet",
     "probe-mac-roman-nl-bullet-long", "probe-mac-roman-en-bullet", "probe-mac-roman-de-"],
)  # fmt: skip
def test_a_bullet_does_not_make_mac_text_windows_1250(prefix: str) -> None:
    """Mac Roman `•` (0xA5) is windows-1252 `¥` but windows-1250 `Ą`: a sign between words is
    no evidence against windows-1252, and Chromium shows windows-1252 (it shows windows-1250
    for Danish and Norwegian, whose `æ ø` are windows-1252 signs inside words)."""
    _shows(_classes(prefix), "windows-1252")


def test_danish_mac_text_is_windows_1250() -> None:
    _shows(_classes("probe-mac-roman-da-many"), "windows-1250")
    _shows(_classes("probe-mac-roman-da-fresh-bullet"), "windows-1250")


GERMAN = "Gestern Abend hat der Bäcker an der Ecke früher geschlossen als sonst, und die Nachbarn"


def test_one_bullet_in_german_mac_text() -> None:
    body = _labelled("• " + GERMAN, "mac_roman", "mac-roman")
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("windows-1252"), Source.DETECTION)
    assert text == decode(body, lookup("windows-1252"))
    danish = "• Søndag går børnene på tur i skoven, og de spiser rødgrød med fløde før de går hjem."
    body = _labelled(danish, "mac_roman", "mac-roman")
    assert decode_html(body)[1].encoding == lookup("windows-1250")


@pytest.mark.parametrize("prefix", ["probe-cp852-sk", "probe-cp852-cs", "probe-cp852-sl-short",
                                    "probe-cp852-sl-long-ip", "fresh-cp852-sk", "fresh-cp852-sl"])
def test_central_european_dos_text_read_as_western_is_windows_1250(prefix: str) -> None:
    """Slovak, Slovene and Czech DOS 852 text that the detector reads as windows-1252 or
    windows-1254 (its letters are Western accented letters there): its words are Central
    European, and Chromium shows windows-1250."""
    documents = [d for d in CLASSES + MORE if d["id"].startswith(prefix)]
    assert documents
    _shows(documents, "windows-1250")


SLOVAK = (
    "Včera večer pekár z našej ulice zatvoril skôr než zvyčajne. Susedia sa znepokojili, ale "
    "on len odišiel osláviť narodeniny svojej dcéry. Dnes ráno boli rožky hotové už o šiestej "
    "a rad siahal až na chodník. Dokonca aj poštár sa zastavil, aby si kúpil ešte teplú buchtu."
)


def test_slovak_dos_text() -> None:
    body = _labelled(SLOVAK, "cp852", "cp852")
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("windows-1250"), Source.DETECTION)
    assert text == decode(body, lookup("windows-1250"))


@pytest.mark.parametrize("prefix", ["meta-cp850-en", "probe-cp437-en-dos-437-short"])
def test_english_dos_text_is_not_central_european(prefix: str) -> None:
    """English DOS text with a dozen non-ASCII bytes (`café £4.50`: windows-1250 `caf‚ ś4.50`):
    Chromium shows windows-1252 (macintosh when the Mac reading is much more plausible)."""
    _shows([d for d in CLASSES + MORE if d["id"].startswith(prefix)], "windows-1252")


def test_english_dos_text() -> None:
    english = (
        "The café on Mill Lane charges £4.50 for a pot of tea, and the owner says that it is "
        "still cheaper than the station."
    )
    body = _labelled(english, "cp850", "cp850")
    assert decode_html(body)[1].encoding == lookup("windows-1252")


@pytest.mark.parametrize(
    "prefix",
    ["probe-dos-866-ru-table-single", "probe-dos-866-ru-table-tight",
     "probe-dos-866-ru-table-double-long", "fresh-cp855-uk-short-ip"],
)  # fmt: skip
def test_box_drawing_against_letters_is_windows_1252(prefix: str) -> None:
    """Russian DOS text with tables whose lines touch the words (`│Отдел│`), and DOS 855 text
    read as IBM866 or KOI8 box drawing: Chromium shows windows-1252 (short text with a
    double-line table stays IBM866 there: not followed)."""
    _shows([d for d in CLASSES + MORE if d["id"].startswith(prefix)], "windows-1252")
    # Russian DOS text without tables is IBM866 in both.
    _shows(_classes("probe-dos-866-ru-plain"), "IBM866")


def test_koi8_reading_with_box_drawing_inside_words() -> None:
    # Russian DOS text whose tables touch the words reads as KOI8-R to the detector (DOS
    # `а-п` are KOI8-R box characters): one in six of its non-ASCII characters are box
    # characters against letters, so it is no KOI8 text; Tajik KOI8-T text (a few `ҳ ғ қ`
    # that KOI8-U lacks) stays KOI8.
    table = (
        "Список участников:\n╒═══╤══════════╕\n│№  │Фамилия   │\n╞═══╪══════════╡\n"
        "│1  │Иванов    │\n│2  │Петров    │\n╘═══╧══════════╛\nВсех просим прийти к девяти."
    )
    body = _labelled(table, "cp866", "dos-866")
    assert decode_html(body)[1].encoding == lookup("windows-1252")
    for tajik in [d for d in MORE if d["id"].startswith("meta-koi8-t-tg-long-ip")]:
        assert tajik["chromium"]["charset"] == "KOI8-U"
        body, text, decision = _decode(tajik)
        # (KOI8-R reads the bytes of this text as KOI8-U does)
        assert decision.encoding.name.startswith("KOI8")
        assert text == decode(body, lookup("KOI8-U"))


@pytest.mark.parametrize(
    "prefix, shown",
    [
        ("probe-cp855-ru", "ISO-8859-10"),
        ("fresh-cp855-ru", "ISO-8859-10"),
        ("meta-cp855-ru-long", "ISO-8859-10"),
        ("meta-cp855-mk", "ISO-8859-10"),
        ("probe-cp855-bg-short-ip", "windows-1256"),
        ("probe-cp855-bg-long-ip", "windows-1256"),
        ("probe-cp855-bg-long-bg", "windows-1253"),
        ("fresh-cp855-bg-short-bg", "windows-1253"),
        ("probe-cp855-uk-short-ip", "windows-1252"),
        ("meta-cp855-be", "windows-1252"),
    ],
)
def test_dos_855_text_shows_by_its_language(prefix: str, shown: str) -> None:
    """DOS 855 text: Chromium's answer follows the language at every length (Russian and
    Macedonian ISO-8859-10, Bulgarian windows-1256 and windows-1253 on .bg, Ukrainian and
    Belarusian windows-1252); the words of the DOS 855 reading tell the language."""
    _shows([d for d in CLASSES + MORE if d["id"].startswith(prefix)], shown)


def test_russian_dos_855_text() -> None:
    russian = (
        "Вчера вечером пекарь из нашего квартала закрылся раньше обычного, но так как он "
        "просто ушёл на праздник, никто не волновался, и это было хорошо для всех."
    )
    body = _labelled(russian, "cp855", "cp855")
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("ISO-8859-10"), Source.DETECTION)
    assert text == decode(body, lookup("ISO-8859-10"))
    # With detection off, the label leaves windows-1252 as before.
    assert decode_html(body, detector=None)[1].encoding == lookup("windows-1252")


@pytest.mark.parametrize(
    "prefix",
    ["meta-cp437-nl-short", "fresh-cp437-nl-medium", "fresh-cp437-nl-long",
     "fresh-cp850-nl-medium", "fresh-cp850-nl-long"],
)  # fmt: skip
def test_dos_text_that_is_valid_shift_jis(prefix: str) -> None:
    """Dutch DOS text (`één` is 0x82 0x82 0x6E, `ë` 0x89): valid Shift_JIS whose non-ASCII
    bytes are mostly its most frequent lead bytes 0x81-0x83; Chromium shows Shift_JIS."""
    _shows([d for d in MORE if d["id"].startswith(prefix)], "Shift_JIS")
    # Dutch DOS text that is not valid Shift_JIS (a lead byte before a space) stays
    # windows-1252 in both.
    _shows([d for d in MORE if d["id"].startswith("fresh-cp437-nl-short-ip")], "windows-1252")


def test_dutch_dos_text() -> None:
    dutch = "Eén keer per week gaan we naar de markt, en geïnteresseerden zijn welkom op één dag."
    body = _labelled(dutch, "cp437", "cp437")
    assert decode_html(body)[1].encoding == lookup("Shift_JIS")


@pytest.mark.parametrize(
    "prefix, shown",
    [
        ("meta-mac-greek-el-long-ip", "KOI8-U"),
        ("fresh-mac-greek-el-long-ip", "KOI8-U"),
        ("probe-mac-greek-el-sample-short-ip", "KOI8-U"),
        ("probe-mac-greek-el-history-long-ip", "KOI8-U"),
        ("probe-mac-greek-el-history-long-gr", "ISO-8859-7"),
        ("meta-mac-greek-el-short-gr", "ISO-8859-7"),
        ("fresh-cp869-el", "windows-1253"),
        ("probe-cp869-el-texts", "windows-1253"),
        ("probe-cp869-el-history-long", "windows-1253"),
        ("probe-cp869-el-sample-short-gr", "windows-1253"),
    ],
)
def test_greek_in_mac_greek_and_dos_869(prefix: str, shown: str) -> None:
    """Mac Greek text (its `ρ` is ISO-8859-7's final `ς`, inside words): Chromium shows
    KOI8-U, ISO-8859-7 on .gr (the TLD's encoding). Greek DOS 869 text (the words of its
    DOS 869 reading are Greek): windows-1253 (15 of 20 pages recorded)."""
    _shows([d for d in CLASSES + MORE if d["id"].startswith(prefix)], shown)


GREEK = (
    "Η δημοτική βιβλιοθήκη είναι ανοιχτή και το Σάββατο. Τα παιδιά μπορούν να διαβάσουν "
    "βιβλία και να παίξουν, ενώ οι μεγάλοι πίνουν καφέ στην αυλή της."
)


def test_greek_mac_and_dos_text() -> None:
    body = _labelled(GREEK, "mac_greek", "mac-greek")
    assert decode_html(body)[1].encoding == lookup("KOI8-U")
    assert decode_html(body, url="http://www.example.gr/")[1].encoding == lookup("ISO-8859-7")
    body = _labelled(GREEK, "cp869", "cp869")
    text, decision = decode_html(body)
    assert (decision.encoding, decision.source) == (lookup("windows-1253"), Source.DETECTION)
    # Greek in ISO-8859-7 under a name no browser knows (`Ά` is windows-1253's `¶`) and in
    # windows-1253 (quotes, an apostrophe inside a word) stays Greek: only Mac Greek reads
    # as a final `ς` inside words.
    iso = "Άρθρο 5. Άνθρωποι και Ώρες: η Άννα ήρθε στις πέντε το απόγευμα και έφυγε νωρίς."
    text, decision = decode_html(_labelled(iso, "iso8859_7", "iso8859_7"))
    assert (decision.encoding, iso in text) == (lookup("ISO-8859-7"), True)
    body = _labelled("«" + GREEK.replace("της", "τ’ς") + "»", "cp1253", "win-1253")
    assert decode_html(body)[1].encoding.name in ("windows-1253", "ISO-8859-7")


def test_utf8_under_an_unknown_label_gets_chromiums_tld_entry() -> None:
    """Chromium never detects UTF-8: the page gets its TLD's entry, and Chromium's table swaps
    the Arabic and Baltic entries (.eg windows-1257, .lt windows-1256)."""
    _shows(_recorded("meta-utf8mb4-ar-long-eg"), "windows-1257")
    body = _labelled("Größe – Zürich", "utf-8", "utf8mb4")
    for host, shown in (("eg", "windows-1257"), ("lt", "windows-1256"), ("ru", "windows-1251"),
                        ("sa", "windows-1252"), ("com", "windows-1252")):  # fmt: skip
        decision = decode_html(body, url=f"http://www.example.{host}/")[1]
        assert decision.encoding == lookup(shown), host
    # Text the detector read is not affected: Lithuanian windows-1257 on .lt stays.
    lithuanian = "Vakar vakare kvartalo kepėjas uždarė parduotuvę anksčiau nei įprastai, bet jis"
    body = _labelled(lithuanian, "cp1257", "win-1257")
    assert decode_html(body, url="http://www.example.lt/")[0].count("ė") == 2


@pytest.mark.parametrize(
    "prefix, shown",
    [
        ("probe-cp775-lv", "macintosh"),
        ("fresh-cp775-lv", "macintosh"),
        ("meta-cp775-lv", "macintosh"),
        ("probe-mac-latin2-lv-texts-short-ip", "windows-1257"),
        ("probe-mac-latin2-lv-texts-long-ip", "windows-1257"),
        ("fresh-mac-latin2-lv-medium-ip", "windows-1257"),
    ],
)
def test_latvian_dos_775_is_macintosh(prefix: str, shown: str) -> None:
    """Latvian text in DOS 775 (every non-ASCII byte a Latvian letter there): Chromium shows
    macintosh at every length and on .lv; the same words in Mac Central European windows-1257."""
    _shows([d for d in CLASSES + MORE + DOCUMENTS if d["id"].startswith(prefix)], shown)


def test_latvian_dos_text() -> None:
    latvian = (
        "Vakar vakarā kvartāla maiznieks slēdza veikalu agrāk nekā parasti. Kaimiņi uztraucās, "
        "bet viņš tikai bija aizgājis svinēt meitas dzimšanas dienu, un tā ir labākā maiznīca."
    )
    text, decision = decode_html(_labelled(latvian, "cp775", "cp775"))
    assert (decision.encoding, decision.source) == (lookup("macintosh"), Source.DETECTION)
    text, decision = decode_html(_labelled(latvian, "mac_latin2", "mac-latin2"))
    assert decision.encoding == lookup("windows-1257")


# Recorded with Chromium 150.0.7871.100 (document.characterSet) on 2026-12-04: a page of UTF-8
# Russian text under <meta charset="utf8mb4">, served as http://www.example.TLD/ through a
# proxy to 127.0.0.1. Chromium's TLD table differs from the Standard's on many of these.
_UTF8MB4_BY_TLD = {
    "ae": "windows-1252",
    "bg": "windows-1251",
    "bh": "windows-1252",
    "by": "windows-1252",
    "cn": "GBK",
    "com": "windows-1252",
    "cz": "windows-1250",
    "de": "windows-1252",
    "dz": "windows-1252",
    "ee": "windows-1256",
    "eg": "windows-1257",
    "fr": "windows-1252",
    "gr": "ISO-8859-7",
    "hk": "Big5",
    "hr": "windows-1250",
    "hu": "ISO-8859-2",
    "il": "windows-1255",
    "iq": "windows-1252",
    "ir": "windows-1257",
    "jo": "windows-1252",
    "jp": "Shift_JIS",
    "kg": "windows-1252",
    "kr": "EUC-KR",
    "kw": "windows-1252",
    "kz": "windows-1252",
    "lb": "windows-1252",
    "lt": "windows-1256",
    "lv": "windows-1256",
    "ly": "windows-1252",
    "ma": "windows-1252",
    "mk": "windows-1251",
    "mo": "windows-1252",
    "om": "windows-1252",
    "pl": "ISO-8859-2",
    "qa": "windows-1252",
    "rs": "windows-1251",
    "ru": "windows-1251",
    "sa": "windows-1252",
    "sd": "windows-1252",
    "si": "ISO-8859-2",
    "sk": "windows-1250",
    "su": "windows-1252",
    "sy": "windows-1252",
    "th": "windows-874",
    "tj": "windows-1252",
    "tn": "windows-1252",
    "tr": "windows-1254",
    "tw": "Big5",
    "ua": "windows-1251",
    "vn": "windows-1258",
    "xn--p1ai": "windows-1252",
    "ye": "windows-1252",
}
_RUSSIAN = (
    "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных"
    " губерний даст мощный толчок подъёму сельского хозяйства. "
) * 3


@pytest.mark.parametrize("tld", sorted(_UTF8MB4_BY_TLD))
def test_utf8_under_an_unknown_label_takes_chromiums_tld_entry(tld: str) -> None:
    body = (
        '<!DOCTYPE html><html><head><meta charset="utf8mb4"><title>t</title></head><body>'
        f"<p>{_RUSSIAN}</p></body></html>"
    ).encode()
    decision = decode_html(body, "text/html", url=f"http://www.example.{tld}/")[1]
    assert decision.encoding.name == _UTF8MB4_BY_TLD[tld]


_PRICES = {  # UTF-8 text whose non-ASCII bytes are mostly E2 82 AC (the euro sign)
    "list": "<ul>"
    + "".join(f"<li>Article {i}: {i * 3 + 2},99 €</li>" for i in range(12))
    + "</ul>",
    "fr": "<p>Le menu du jour coûte 12 € et le dessert 4 €. Boisson : 2 €. Total : 18 €.</p>",
    "de": "<p>Preis: 25 € pro Person, Kinder 10 €, Gruppen ab 200 €.</p>",
    "ro": "<p>Bună ziua! Aceasta este o pagină în limba română, cu litere ă, â și î.</p>",
}


@pytest.mark.parametrize("text", sorted(_PRICES))
@pytest.mark.parametrize("label", ["utf8mb4", "utf8mb3"])
@pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://www.example.de/"])
def test_valid_utf8_under_an_unknown_label_is_never_read_as_shift_jis(
    text: str, label: str, url: str
) -> None:
    """Valid UTF-8 whose bytes also read as Shift_JIS (E2 82 xx: 0x82 a third of the non-ASCII
    bytes) is not given the Shift_JIS reading meant for DOS text: Chromium never detects UTF-8
    and shows windows-1252 on all 16 of these pages (recorded as above)."""
    body = (
        f'<!DOCTYPE html><html><head><meta charset="{label}"><title>t</title></head><body>'
        f"{_PRICES[text]}</body></html>"
    ).encode()
    assert decode_html(body, "text/html", url=url)[1].encoding.name == "windows-1252"
