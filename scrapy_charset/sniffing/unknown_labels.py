"""How Chromium shows a page labelled with a name no browser knows (``latin9``, ``mac-roman``,
``cp852``, ``koi8-t``, ``johab``...): it ignores the label and shows what its detector
(compact_enc_det, with the TLD as a hint) answers, mojibake included. The rules below were
found on the recordings of ``tests/data/chromium/`` (``unknown_labels*.jsonl.gz``, see
``FINDINGS.md``): what Chromium's detector shows for each class of text, given what the
project's detector finds in it.
"""

from __future__ import annotations

from .._regex import lazy_compile
from ..encoding import UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, Encoding, decode, get_encoding
from .decision import Source
from .detect import PREFIX_BYTES, detection_window, text_sample
from .letters import WORDS
from .tld import tld_default

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
_IBM866 = get_encoding("IBM866")
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
_ASCII_WORD = lazy_compile(rb"(?<![\x80-\xff\w])[a-z]{2,}(?![\x80-\xff\w])")
# Enough different function words of a language to say the page is in it.
_FAMILY_WORDS = 3
# English function words (letters.py has no English: its texts need no detection), so that
# English text, whose "to", "do", "by" are Czech and Slovak words too, is of no family.
_ENGLISH_WORDS = frozenset(
    "the and of to in is it that for on with as by at be this are was from or not you your"
    " have has an we our they their can will all do if no so but which".split()
)
# A letter against a box-drawing or block character: text in another DOS code page (852,
# 855) read as IBM866, not IBM866 text.
_BOX_IN_WORD = lazy_compile("[\u0400-\u04ff][\u2500-\u259f]|[\u2500-\u259f][\u0400-\u04ff]")


def _family_of_words(sample: bytes) -> str | None:
    """The encoding of ``_FAMILY_OF_LANGUAGE`` for the languages whose function words are most
    of the different ASCII words of ``sample`` (at least ``_FAMILY_WORDS``); ``None`` when
    they are not all of one family (or of none)."""
    words = {w.decode("ascii") for w in _ASCII_WORD.findall(sample.lower())}
    hits = {language: len(words.intersection(listed.split())) for language, listed in WORDS.items()}
    hits["english"] = len(words.intersection(_ENGLISH_WORDS))  # of no family
    most = max(hits.values())
    families = {_FAMILY_OF_LANGUAGE.get(language) for language, n in hits.items() if n == most}
    family = families.pop() if len(families) == 1 else None
    return family if most >= _FAMILY_WORDS else None


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
    """What Chromium shows for Mac Roman text that has no byte windows-1252 lacks:
    windows-1252, or windows-1250 where only that reading makes every non-ASCII byte a
    letter (Danish and Norwegian `æ ø` are windows-1252 `¾ ¿`, windows-1250 `ľ ż`)."""
    if _symbols(sample, "windows-1250") == 0 < _symbols(sample, "windows-1252"):
        return "windows-1250"
    return "windows-1252"


def _symbols(sample: bytes, name: str) -> int:
    """How many non-ASCII characters of ``sample`` read in ``name`` are not letters."""
    return sum(not char.isalpha() for char in decode(sample, get_encoding(name)) if char > "\x7f")


def as_chromium_shows(
    data: bytes, tld: str | None, detected: Encoding | None, detecting: bool
) -> tuple[Encoding, Source]:
    """The encoding and source for a page labelled with a name no browser knows, given the TLD
    of its URL and what the detector found (``detected``; ``detecting`` is false when detection
    is turned off). Chromium
    ignores the label and shows what its detector says, even where that is not the true text
    (an undeclared page gets the true text): valid UTF-8 (`utf8mb4`) as the TLD's default or
    windows-1252, and the siblings its detector picks (`latin9` French as windows-1252,
    `mac-cyrillic` Russian as windows-1251). Text in a code page no browser has reads as the
    encoding of its language's family (Polish, Czech, ... in DOS 852 or Mac Central European
    as windows-1250; Latvian, Lithuanian as windows-1257), DOS Cyrillic 855 as windows-1252."""
    window = detection_window(data, PREFIX_BYTES)  # what the detectors read
    sample = text_sample(window)
    if detected == _IBM866 and _BOX_IN_WORD.search(decode(sample, _IBM866)):
        # DOS Cyrillic (855) read as IBM866 box drawing: Chromium's guesses for it are
        # noise (windows-1256, ISO-8859-10, ...), windows-1252 the most frequent, whatever
        # the TLD.
        return WINDOWS_1252, Source.DEFAULT
    if detecting and (detected is None or detected.name == "macintosh"):
        family = _family_of_words(sample)
        if family is not None:
            return get_encoding(family), Source.DETECTION
        if detected is None and _reads_as_mac(sample):
            return get_encoding("macintosh"), Source.DETECTION
    if detected is not None and detected not in _NEVER_DETECTED_BY_CHROMIUM:
        shown = _CHROMIUM_SHOWS.get(detected.name)
        if detected.name == "macintosh" and not _UNDEFINED_IN_WINDOWS_1252.search(window):
            # Mac text with no byte windows-1252 lacks (German, Spanish) is windows-1252 in
            # Chromium; French and Portuguese (`ç` is 0x8D) stay macintosh.
            shown = _shown_for_mac(sample)
        return get_encoding(shown) if shown else detected, Source.DETECTION
    default = tld_default(tld)
    if default is not None:
        return default, Source.TLD
    return WINDOWS_1252, Source.DEFAULT
