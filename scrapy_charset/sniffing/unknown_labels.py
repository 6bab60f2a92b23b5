"""How Chromium shows a page labelled with a name no browser knows (``latin9``, ``mac-roman``,
``cp852``, ``koi8-t``, ``johab``...): it ignores the label and shows what its detector
(compact_enc_det, with the TLD as a hint) answers, mojibake included. The rules below were
found on the recordings of ``tests/data/chromium/`` (``unknown_labels*.jsonl.gz``, see
``FINDINGS.md``): what Chromium's detector shows for each class of text, given what the
project's detector finds in it.
"""

from __future__ import annotations

import re

from .._regex import lazy_compile
from ..encoding import UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, Encoding, decode, get_encoding
from .decision import Source
from .detect import PREFIX_BYTES, detection_window, raw_fill_sample
from .letters import LANGUAGES, LATIN_CANDIDATES, WORDS
from .tld import chromium_tld_default, tld_default

# What Chromium's detector shows for text the project detects as the key (measured,
# tests/data/chromium/FINDINGS.md, unknown_labels_more.jsonl.gz): a sibling, or windows-1252
# for encodings it never detects. UTF-8, BOM-less UTF-16 and ISO-2022-JP are never detected
# either.
_CHROMIUM_SHOWS: dict[str, str] = {
    "ISO-8859-2": "windows-1250",
    "ISO-8859-8": "windows-1255",
    "x-mac-cyrillic": "windows-1251",
    "ISO-8859-15": "windows-1252",
    "ISO-8859-16": "windows-1252",
    "ISO-8859-14": "windows-1252",
    "windows-1258": "windows-1252",
}
_UNDEFINED_IN_WINDOWS_1252 = lazy_compile(rb"[\x81\x8d\x8f\x90\x9d]")
# The detector's Western readings, and all its Latin ones but macintosh (whose rules follow).
_WESTERN_GUESSES = {"windows-1252", "windows-1254", "macintosh"}
_LATIN_GUESSES = set(LATIN_CANDIDATES) - {"macintosh"}
_HIGH_BYTES = bytes(range(0x80, 0x100))
_SHIFT_JIS = get_encoding("Shift_JIS")
_NEVER_DETECTED_BY_CHROMIUM = (UTF_8, UTF_16LE, UTF_16BE, get_encoding("ISO-2022-JP"))
# Languages written in windows-1250 and windows-1257, by the function words of letters.py:
# their text in a code page no browser has (DOS 852 and 775, Mac Central European) is what
# Chromium's detector shows in these encodings (measured, tests/data/chromium/
# unknown_labels_more.jsonl.gz).
_FAMILY_OF_LANGUAGE = {
    "polish": "windows-1250", "czech": "windows-1250", "slovak": "windows-1250",
    "hungarian": "windows-1250", "south slavic": "windows-1250",
    "latvian": "windows-1257", "lithuanian": "windows-1257",
}  # fmt: skip
# Languages written in windows-1252, by the same function words.
_WESTERN = {
    "french", "german", "spanish", "portuguese", "italian", "catalan", "dutch", "swedish",
    "finnish", "danish norwegian", "icelandic", "faroese", "english",
}  # fmt: skip
_ASCII_WORD = lazy_compile(rb"(?<![\x80-\xff\w])[a-z]{2,}(?![\x80-\xff\w])")
# Enough different function words of a language to say the page is in it.
_FAMILY_WORDS = 3
# English function words (letters.py has no English: its texts need no detection), so that
# English text, whose "to", "do", "by" are Czech and Slovak words too, is of no family.
_ENGLISH_WORDS = frozenset(
    "the and of to in is it that for on with as by at be this are was from or not you your"
    " have has an we our they their can will all do if no so but which".split()
)
# A box-drawing or block character against a letter: text in another DOS code page (852,
# 855) read as IBM866 or KOI8, or DOS text with tables drawn against the words.
_BOX_IN_WORD = lazy_compile(
    "(?<=[\u0400-\u04ff])[\u2500-\u259f]|[\u2500-\u259f](?=[\u0400-\u04ff])"
)
# KOI8 has letters among its box characters (0x80-0xBF: `ё`, Ukrainian `є і ї ґ`, and the
# Tajik letters of KOI8-T read as KOI8-U): text in KOI8 shows a few box characters against
# letters (measured: 7% of the non-ASCII characters of Tajik KOI8-T text), DOS 855 text and
# DOS 866 text with tight tables one in six or more (17-29%). For IBM866 any one counts:
# Chromium shows windows-1252 also for Russian DOS text with tables (tests/data/chromium/
# unknown_labels_classes.jsonl.gz).
_KOI8_BOX_SHARE = 1 / 8
_BOX_READINGS = {"IBM866": 0.0, "KOI8-R": _KOI8_BOX_SHARE, "KOI8-U": _KOI8_BOX_SHARE}


def _word_hits(sample: bytes) -> dict[str, int]:
    """How many different function words of each language (letters.py's and English) are
    among the ASCII words of ``sample``."""
    words = {w.decode("ascii") for w in _ASCII_WORD.findall(sample.lower())}
    hits = {language: len(words.intersection(listed.split())) for language, listed in WORDS.items()}
    hits["english"] = len(words.intersection(_ENGLISH_WORDS))
    return hits


def _language_families(sample: bytes) -> tuple[set[str | None], int]:
    """The families (``_FAMILY_OF_LANGUAGE``; ``None`` for a language of none, ``"english"``
    for English) of the languages whose function words are most of the different ASCII
    words of ``sample``, and how many of those words there are."""
    hits = _word_hits(sample)
    most = max(hits.values())
    families = {
        "english" if language == "english" else _FAMILY_OF_LANGUAGE.get(language)
        for language, n in hits.items()
        if n == most
    }
    return families, most


def _family_of_words(sample: bytes) -> str | None:
    """The encoding of ``_FAMILY_OF_LANGUAGE`` for the languages whose function words are most
    of the different ASCII words of ``sample`` (at least ``_FAMILY_WORDS``); ``None`` when
    they are not all of one family (or of none; English is of none)."""
    families, most = _language_families(sample)
    family = families.pop() if len(families) == 1 else None
    return family if most >= _FAMILY_WORDS and family != "english" else None


def _languages_of_words(sample: bytes) -> set[str]:
    """The languages whose function words are most of the different ASCII words of
    ``sample`` (at least ``_FAMILY_WORDS`` of them; none when fewer)."""
    hits = _word_hits(sample)
    most = max(hits.values())
    if most < _FAMILY_WORDS:
        return set()
    return {language for language, n in hits.items() if n == most}


def _of_western_language(sample: bytes) -> bool:
    """Whether the function words of ``sample`` are of a windows-1252 language only."""
    languages = _languages_of_words(sample)
    return bool(languages) and languages <= _WESTERN


def _is_english(sample: bytes) -> bool:
    """Whether the function words of ``sample`` are English ones (at least ``_FAMILY_WORDS``,
    more than of any other language)."""
    families, most = _language_families(sample)
    return families == {"english"} and most >= _FAMILY_WORDS


def _box_drawn(sample: bytes, detected: Encoding) -> bool:
    """Whether ``detected``, a Cyrillic DOS or KOI8 encoding, reads box-drawing characters
    against the letters of ``sample`` (more than its ``_BOX_READINGS`` share)."""
    share = _BOX_READINGS.get(detected.name)
    if share is None:
        return False
    text = decode(sample, detected)
    boxes = len(_BOX_IN_WORD.findall(text))
    return boxes > share * (len(text) - len(text.encode("ascii", "ignore")))


# What Chromium shows for text in DOS 855 and DOS 869, by its language (measured at every
# length on the recordings of tests/data/chromium/: Russian DOS 855 13 of 16 pages and
# Macedonian 5 of 5 ISO-8859-10; Bulgarian windows-1256, windows-1253 on .bg; Ukrainian,
# Belarusian, Serbian windows-1252; Greek DOS 869 windows-1253, 15 of 20 pages).
_DOS_PAGES: dict[str, tuple[str, ...]] = {
    "cp855": ("russian", "ukrainian", "belarusian", "bulgarian", "serbian", "macedonian"),
    "cp869": ("greek",),
}
_DOS_SHOWN = {
    "russian": "ISO-8859-10", "macedonian": "ISO-8859-10", "bulgarian": "windows-1256",
    "greek": "windows-1253",
}  # fmt: skip
_DOS_ON_TLD = {("bulgarian", "bg"): "windows-1253"}
_NON_LATIN_WORD = re.compile("[\u0370-\u04ff]+")


def _dos_language(sample: bytes) -> str | None:
    """The language whose function words are most of the words of ``sample`` read in one of
    ``_DOS_PAGES`` (at least ``_FAMILY_WORDS`` of them, of one language only); ``None`` for
    text in any other encoding, whose reading there has no such words."""
    for codec, languages in _DOS_PAGES.items():
        words = set(_NON_LATIN_WORD.findall(sample.decode(codec, errors="replace").lower()))
        if len(words) < _FAMILY_WORDS:
            continue
        hits = {lang: len(words.intersection(WORDS[lang].split())) for lang in languages}
        most = max(hits.values())
        best = [language for language, n in hits.items() if n == most]
        if most >= _FAMILY_WORDS and len(best) == 1:
            return best[0]
    return None


def _shown_for_dos(language: str, tld: str | None) -> str:
    return _DOS_ON_TLD.get((language, tld or ""), _DOS_SHOWN.get(language, "windows-1252"))


_LATVIAN_LETTERS = frozenset("".join(LANGUAGES["latvian"]))


def _latvian_in_dos_775(sample: bytes) -> bool:
    """Whether ``sample`` has Latvian words (its function words are Latvian ones) and its DOS
    775 reading makes every non-ASCII character a Latvian letter."""
    if _languages_of_words(sample) != {"latvian"}:
        return False
    text = sample.decode("cp775", errors="replace")
    return all(char.lower() in _LATVIAN_LETTERS for char in text if char > "\x7f")


# Shift_JIS lead bytes 0x81-0x83 (punctuation, hiragana and full-width letters, katakana): the
# most frequent in Japanese text. Text in no browser encoding that is valid Shift_JIS with a
# third of its non-ASCII bytes among them is Shift_JIS in Chromium (Dutch DOS text, whose
# `é ë` are 0x82 0x89; Turkish DOS text, `ü é` 0x81 0x82).
_SHIFT_JIS_FREQUENT_LEADS = bytes(range(0x81, 0x84))
_SHIFT_JIS_SHARE = 1 / 3


def _reads_as_shift_jis(window: bytes) -> bool:
    """Whether ``window`` is valid Shift_JIS with ``_SHIFT_JIS_SHARE`` of its non-ASCII bytes
    among the most frequent lead bytes."""
    high = len(window) - len(window.translate(None, _HIGH_BYTES))
    leads = len(window) - len(window.translate(None, _SHIFT_JIS_FREQUENT_LEADS))
    if not high or leads < _SHIFT_JIS_SHARE * high:
        return False
    return "\ufffd" not in decode(window, _SHIFT_JIS)


_GREEK = ("ISO-8859-7", "windows-1253")


# A final sigma before a Greek letter: inside a word, where Greek never has it.
_SIGMA_IN_WORD = lazy_compile("\u03c2(?=[\u0370-\u03ff])")


def _odd_greek(sample: bytes) -> bool:
    """Whether ISO-8859-7 reads a final sigma inside a word of ``sample``: Greek text in Mac
    Greek (whose `ρ` is ISO-8859-7's `ς`), not in a Greek encoding of the standard."""
    return _SIGMA_IN_WORD.search(decode(sample, get_encoding("ISO-8859-7"))) is not None


# Signs of running text (as letters.py counts them): a cheap reading of a byte.
_TEXT_SIGNS = frozenset("\xa0\xad«»°©®–—‘’‚“”„…•·€£¥§±×¿¡™²³½¼¾ºª‹›")
# How much less plausible the windows-1252 reading of text in no browser encoding must be than
# its Mac Roman reading for Chromium to show macintosh (chosen on the dev half of
# unknown_labels_more.jsonl.gz: French, Swedish, Norwegian, Turkish, Kurdish DOS text of some
# length is macintosh, German, Spanish, Portuguese windows-1252).
_MAC_EVIDENCE = 40


def _implausible(sample: bytes, name: str) -> int:
    """How unlike text the non-ASCII characters of ``sample`` read in ``name`` are: nothing for
    a small letter (or a byte the encoding leaves undefined: Chromium's detector does not count
    it), 1 for a capital or a sign of running text, 3 for any other symbol."""
    cost = 0
    for char in decode(sample, get_encoding(name)):
        if char < "\xa0" or (char.isalpha() and char.islower()):  # ASCII, undefined, letter
            continue
        cost += 1 if char.isalpha() or char in _TEXT_SIGNS else 3
    return cost


def _reads_as_mac(sample: bytes) -> bool:
    """Whether Chromium's detector shows text in no browser encoding as macintosh: its Mac
    Roman reading is more plausible than its windows-1252 one by ``_MAC_EVIDENCE``."""
    return _implausible(sample, "windows-1252") - _implausible(sample, "macintosh") >= _MAC_EVIDENCE


def _shown_for_mac(sample: bytes) -> str:
    """What Chromium shows for Western text in Mac Roman that has no byte windows-1252 lacks:
    windows-1252, or windows-1250 where windows-1252 reads signs inside words and
    windows-1250 letters (Danish and Norwegian `æ ø` are windows-1252 `¾ ¿`, windows-1250
    `ľ ż`); a sign between words (a bullet `•`, windows-1252 `¥`) is no evidence."""
    if _signs_in_words(sample, "windows-1250") == 0 < _signs_in_words(sample, "windows-1252"):
        return "windows-1250"
    return "windows-1252"


# A non-ASCII character with a letter before or after it.
_NON_ASCII_IN_WORD = lazy_compile(r"(?<=[^\W\d_])[^\x00-\x7f]|[^\x00-\x7f](?=[^\W\d_])")


def _signs_in_words(sample: bytes, name: str) -> int:
    """How many non-ASCII characters of ``sample`` read in ``name`` stand against a letter
    but are no letters."""
    text = decode(sample, get_encoding(name))
    return sum(not char.isalpha() for char in _NON_ASCII_IN_WORD.findall(text))


def as_chromium_shows(
    data: bytes, tld: str | None, detected: Encoding | None, detecting: bool
) -> tuple[Encoding, Source]:
    """The encoding and source for a page labelled with a name no browser knows, given the TLD
    of its URL and what the detector found (``detected``; ``detecting`` is false when detection
    is turned off). Chromium ignores the label and shows what its detector says, even where
    that is not the true text (an undeclared page gets the true text): first the classes of
    text in a code page no browser has (:func:`_shown_for_text`), then the sibling its
    detector picks for what the detector here found (:func:`_shown_for_detected`), and for
    nothing detected or valid UTF-8 (`utf8mb4`) the TLD's entry or windows-1252."""
    if detected not in _NEVER_DETECTED_BY_CHROMIUM and (detecting or detected is not None):
        window = detection_window(data, PREFIX_BYTES)  # what the detectors read
        # (The sample the rules were measured on, a short page's text twice: see
        # raw_fill_sample.)
        sample = raw_fill_sample(window)
        if detecting:
            by_text = _shown_for_text(sample, window, tld, detected)
            if by_text is not None:
                return by_text
        if detected is not None:
            shown = _shown_for_detected(sample, window, tld, detected)
            return get_encoding(shown), Source.DETECTION
    # Nothing detected, or an encoding Chromium never detects (UTF-8): its TLD table decides
    # (for UTF-8 measured; its table differs from the Standard's on a few TLDs).
    never = detected is not None
    default = chromium_tld_default(tld) if never else tld_default(tld)
    if default is not None:
        return default, Source.TLD
    return WINDOWS_1252, Source.DEFAULT


def _shown_for_text(
    sample: bytes, window: bytes, tld: str | None, detected: Encoding | None
) -> tuple[Encoding, Source] | None:
    """What Chromium shows for text in a code page no browser has, by its class (``None``
    when it is of none): DOS 855 and 869 text by its language, Shift_JIS-like DOS text, box
    drawing against letters, the family of Central European words, English and other text
    the detector reads as no language."""
    dos = _dos_language(sample)
    if dos is not None:
        # Words of a language in DOS 855 or 869: Chromium's answer follows the language.
        return get_encoding(_shown_for_dos(dos, tld)), Source.DETECTION
    if _reads_as_shift_jis(window):
        return get_encoding("Shift_JIS"), Source.DETECTION
    if detected is not None and _box_drawn(sample, detected):
        # DOS Cyrillic (855) read as IBM866 or KOI8 box drawing, or DOS text with tables:
        # Chromium's guesses for DOS 855 text are noise (windows-1256, ISO-8859-10, ...),
        # windows-1252 the most frequent, whatever the TLD; for tables windows-1252.
        return WINDOWS_1252, Source.DEFAULT
    if detected is None or detected.name in _WESTERN_GUESSES:
        # Central European words whose letters the detector read as Western (or as none):
        # Chromium shows the family's encoding (Slovak, Slovene, Czech DOS 852 text), but
        # macintosh for Latvian DOS 775 text (not Mac Central European) at every length and
        # on .lv (measured: 10 of 10 pages).
        family = _family_of_words(sample)
        if family is not None:
            latvian_dos = _latvian_in_dos_775(sample)
            return get_encoding("macintosh" if latvian_dos else family), Source.DETECTION
    english = detected is not None and detected.name in _LATIN_GUESSES and _is_english(sample)
    if detected is None or english:
        # Text of no language (or English text, whose few accents the detector read as
        # Central European letters: `café £4` as windows-1250 `caf‚ ś4`): Chromium shows
        # macintosh where that reading is much more plausible, else windows-1252.
        if _reads_as_mac(sample):
            return get_encoding("macintosh"), Source.DETECTION
        if english:
            return WINDOWS_1252, Source.DETECTION
    return None


def _shown_for_detected(sample: bytes, window: bytes, tld: str | None, detected: Encoding) -> str:
    """The encoding Chromium's detector shows for text the detector here read as
    ``detected``: a sibling (``_CHROMIUM_SHOWS``), windows-1252 or windows-1250 for Western
    Mac text, KOI8-U for Mac Greek, else ``detected`` itself."""
    if detected.name == "macintosh" and not _UNDEFINED_IN_WINDOWS_1252.search(window):
        # Mac text with no byte windows-1252 lacks (German, Spanish) is windows-1252 in
        # Chromium; French and Portuguese (`ç` is 0x8D) stay macintosh.
        return _shown_for_mac(sample)
    if detected.name in _GREEK and detected != tld_default(tld) and _odd_greek(sample):
        # Greek in Mac Greek (`ρ` read as a final `ς` inside words): Chromium shows KOI8-U,
        # unless the TLD (.gr) steers it back to ISO-8859-7.
        return "KOI8-U"
    if detected.name == "windows-1250" and _of_western_language(sample):
        # Words of a windows-1252 language whose letters the detector read as windows-1250
        # ones (German Mac Roman `ä ö ü` as `Š š ź`): as Mac text.
        return _shown_for_mac(sample)
    return _CHROMIUM_SHOWS.get(detected.name, detected.name)
