"""Which single-byte reading of undeclared bytes is text: structure first, then letters.

Every single-byte encoding of the Encoding Standard that a language could be written in is a
candidate. A reading is ruled out when it turns a byte into a control code or an unassigned
code point while another reading does not (bytes 0x80-0x9F rule out every ISO-8859 reading,
for instance). The readings left are scored by the letters they give: for each language the
encoding can write, its frequent letters count 1, its other letters less, letters foreign to
the language count -1 and rare symbols -0.5; a reading scores as its best language. Readings
that put a capital right after a small letter, a letter against a digit, a symbol inside a
word or a non-Latin letter against a Latin one are marked down: misread text does that,
running text does not. Readings that score the same are a tie, broken by the caller.

Everything is counted with ``bytes.translate`` and ``bytes.count`` on the sample and a sum over
the distinct non-ASCII bytes, so the cost is a few hundred microseconds at most per page.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import cache
from operator import mul

from .._regex import lazy_compile
from ..encoding import get_encoding
from ..encoding.fast import charmap_table

# Languages by their non-ASCII letters (lowercase): (frequent, other). Languages whose letters
# are all ASCII cannot tell encodings apart and are left out; closely related languages that
# share an alphabet are one entry.
LANGUAGES: dict[str, tuple[str, str]] = {
    "french": ("éèàçêâôîûùë", "ïüœæÿ"),
    "german": ("äöüß", "é"),
    # Spanish, Galician, Basque, Irish.
    "spanish": ("áéíóúñ", "ü"),
    "portuguese": ("ãáâàçéêíóôõú", "ü"),
    "italian": ("àèéìòù", "íóúî"),
    "catalan": ("àèéíïòóúüç", ""),
    "dutch": ("éëïöü", "èáó"),
    # Swedish, Finnish, Danish, Norwegian.
    "nordic": ("äöåæø", "éšž"),
    # ð þ ý are also how Welsh ŵ ŷ and Esperanto ŭ ŝ read in windows-1252: they count less.
    "icelandic": ("áéíóúæö", "ðþý"),
    # (æ ø ý are also how Esperanto ĉ ĝ ŭ read in windows-1252: they count less.)
    "faroese": ("áíóúð", "ýæø"),
    "albanian": ("çë", ""),
    "estonian": ("äõöü", "šž"),
    "polish": ("ąćęłńóśźż", ""),
    "czech": ("áčďéěíňóřšťúůýž", "äöü"),
    "slovak": ("áäčďéíĺľňóôŕšťúýž", "öü"),
    "hungarian": ("áéíóöőúüű", "ä"),
    # Croatian, Slovene, Bosnian, Serbian in Latin script.
    "south slavic": ("čćđšž", ""),
    # With the correct comma below, and with the cedilla of older fonts and encodings (the
    # same bytes in ISO-8859-16 and ISO-8859-2: a tie, unless other bytes tell them apart).
    "romanian": ("ăâîșț", ""),
    "romanian with cedilla": ("ăâîşţ", ""),
    "turkish": ("çğıöşü", "âîûi̇"),
    "kurdish": ("çêîşû", ""),
    "latvian": ("āčēģīķļņšūž", "ōŗ"),
    "lithuanian": ("ąčęėįšųūž", ""),
    "maltese": ("ċġħżàèìòù", "éíóúî"),
    "esperanto": ("ĉĝĥĵŝŭ", ""),
    "welsh": ("ŵŷâêîôû", "áéíóúàèìòùäëïöü"),
    # Tones as the combining marks windows-1258 has, and the precomposed letters it has.
    "vietnamese": (
        "ăâđêôơư\u0300\u0301\u0303\u0309\u0323",
        "àáãèéìíòóõùúýÀÁÃÈÉÌÍÒÓÕÙÚÝ",
    ),
    "greek": ("αεινοτσςηυρκπμλάέίόήύώ", "βγδζθξφχψωϊϋΐΰ"),
    "russian": ("оеаинтсрвлкмдпуяы", "зьбгчйхжшюцщэфъё"),
    "ukrainian": ("оанивітерсклудмп", "зяьгбчйхжшюцщфєїґ"),
    "belarusian": ("аонірстелвкыдумпяз", "ўёэьбгчйхжшюцф"),
    "bulgarian": ("оаеинтрсвлкдпъ", "мзяубгчьйхжшюцщф"),
    "serbian": ("аоиентсрјвлдкпу", "мзбгчћђжшџљњцхф"),
    "macedonian": ("аоеинтрсвдклпу", "мзјбгчѓќжшџљњцхфѕ"),
    # Letters, then the vowel points.
    "hebrew": ("יוהאלרמתבשנע", "גדזחטכסםפצקךןףץ" + "".join(map(chr, range(0x05B0, 0x05C8)))),
    "arabic": (
        "اليمونهربتعدةك",
        "أإآىثجحخذزسشصضطظغفقءئؤپچژگکی\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652",
    ),
    # The most frequent consonants and vowel signs, then the rest.
    "thai": (
        "\u0e19\u0e32\u0e23\u0e01\u0e2d\u0e07\u0e40\u0e48\u0e21\u0e22\u0e49\u0e14\u0e35\u0e31\u0e15\u0e34",
        "".join(map(chr, range(0x0E01, 0x0E5C))),
    ),
}

# The most frequent words of each language (function words, most of them ASCII). Where two
# readings score the same on their letters but give different texts, the words around the
# non-ASCII bytes tell which language each reading is (Welsh `ŵyl` is `ðyl` in windows-1252,
# Faroese letters: the Welsh words around it decide); Thai has no spaces between words.
WORDS: dict[str, str] = {
    "french": "le la les de des et est un une du en que qui dans pour pas sur au avec il elle"
    " ne se ce plus par",
    "german": "der die das und ist nicht ein eine zu den von mit sich des auf dem im auch es"
    " wie sie",
    "spanish": "el la los las de del y que en un una por con para es se no lo al como su",
    "portuguese": "o a os as de do da dos das e que em um uma para com no na por se não é",
    "italian": "il lo la gli le di e che un una per con non si del della sono nel al è",
    "catalan": "el la els les de i que en un una per amb és del al als no",
    "dutch": "de het een en van is dat op te in niet zijn met voor die er aan ook",
    "nordic": "och att det som en ett är på för av med inte og er ikke til at jeg har af ja on ei"
    " se että oli mutta kun",
    "icelandic": "og er til sem ekki var hann um fyrir en eru hafa hefur það að í á við með",
    "faroese": "og er at til sum ikki eru hann hon av um fyri eitt ein var tað í á við",
    "albanian": "dhe te të në një per për me nga se i e është u qe që",
    "estonian": "ja on ei et see ka oli kui aga mis ta nad või ning",
    "polish": "i w na nie z do to jest się że o jak ale po od za przez tak",
    "czech": "a v se na je z do to že jsou ale jak pro od po by o tak jako které",
    "slovak": "a v sa na je z do to že sú ale ako pre od po by o tak aj",
    "hungarian": "a az és hogy nem is egy meg van de csak ez mint már volt el ki",
    "south slavic": "i je u na da se za od su to ne kao ali iz o što će sa pa so v pri tudi kot"
    " bi ki še že",
    "romanian": "și de la în cu pe un o care nu este mai din pentru sau ca se ce au fost dar prin",
    "romanian with cedilla": "şi de la în cu pe un o care nu este mai din pentru sau ca se ce"
    " au fost dar prin",
    "turkish": "ve bir bu da de için ile çok olarak gibi ama daha ne o en",
    "kurdish": "û li ji bi di de ku ew vê wê ya yê jî re",
    "latvian": "un ir ar par no uz kas ka arī bet tas to vai lai nav",
    "lithuanian": "ir yra kad su iš į tai bet kaip jo nuo už apie ar per buvo",
    "maltese": "il u li ta tal fil għal ma minn bħala huwa hija kien dan din fuq",
    "esperanto": "la kaj de en estas al ne ke por kun mi li ŝi ili ĉi unu sed pri",
    "welsh": "y yr yn a ac mae wedi ei eu gyda oedd sydd hefyd bod fod ond hyn ddim ar am i o"
    " fel gan ym yng",
    "vietnamese": "và của là có không được cho trong những các người một",
    "greek": "και το η ο να του της την με σε για από που τα οι δεν στο στην είναι",
    "russian": "и в не на что с по это как а он я к из у же для от но так",
    "ukrainian": "і в у на що з не та до це як за від його але й для є",
    "belarusian": "і у ў на што з не да гэта як па ад для але яго",
    "bulgarian": "и в на за да се е не от с че по това са като но ще",
    "serbian": "и у на да се је за од су то не као али из са",
    "macedonian": "и на да се е за од со во не што го ќе ги тоа како",
    "hebrew": "של את על לא הוא זה עם היא גם כי אני כל אבל מה",
    "arabic": "في من على أن إلى عن مع هذا التي الذي ما لا كان هذه",
    "thai": "",
}
# A reading wins on words with at least this many more of its language's words than the other
# readings (one word may be a name or a quotation).
_WORD_MARGIN = 2
# Words of two letters or more (one-letter words are in too many languages).
_WORD = lazy_compile(r"\w\w+")
# The text around non-ASCII bytes, within a text node: where the words are the page's words
# (a sample's filler can hold script).
_AROUND_NON_ASCII = lazy_compile(rb"[^<>]{0,64}[\x80-\xff][^<>]{0,64}")


# Encodings in the order that wins a tie (Chromium's choices first: it reads ISO-8859-2 text
# as windows-1250, ISO-8859-8 as windows-1255, and never guesses the rarer ones; it does guess
# macintosh for Mac French, measured).
CANDIDATES: tuple[str, ...] = (
    "windows-1252", "windows-1250", "ISO-8859-2", "windows-1251", "KOI8-R", "KOI8-U",
    "IBM866", "ISO-8859-5", "x-mac-cyrillic", "windows-1253", "ISO-8859-7", "windows-1254",
    "windows-1255", "ISO-8859-8", "windows-1256", "ISO-8859-6", "windows-1257", "windows-874",
    "windows-1258", "ISO-8859-15", "ISO-8859-16", "ISO-8859-13", "ISO-8859-3", "ISO-8859-4",
    "ISO-8859-10", "ISO-8859-14", "macintosh",
)  # fmt: skip
# The candidates for text whose non-ASCII bytes stand alone between ASCII letters.
LATIN_CANDIDATES: tuple[str, ...] = (
    "windows-1252", "windows-1250", "ISO-8859-2", "windows-1254", "windows-1257",
    "windows-1258", "ISO-8859-15", "ISO-8859-16", "ISO-8859-13", "ISO-8859-3", "ISO-8859-4",
    "ISO-8859-10", "ISO-8859-14", "macintosh",
)  # fmt: skip

# Punctuation and signs of running text (no mark); any other symbol counts as rare.
_COMMON_SIGNS = set("\xa0\xad«»°©®–—‘’‚“”„…•·€£¥§±×¿¡™²³½¼¾ºª‹›₪؟،؛ـ\u200e\u200f฿")
# Apostrophes and hyphens may stand inside a word.
_IN_WORD_SIGNS = set("’‘'·\xad–-")
_FREQUENT, _OTHER, _FOREIGN, _RARE_SIGN, _BROKEN = 1.0, 0.4, -1.0, -0.5, -5.0
_CAPITAL = 0.5  # a capital letter counts half (running text is mostly small letters)
_CONTEXT = -1.0  # per misplaced character

# Byte classes for the context rules: ASCII small/capital letter, non-ASCII Latin small/capital
# letter, non-Latin small/capital letter (or caseless), digit, rare sign, anything else.
_ASCII_CLASSES = "".join(
    "a" if "a" <= chr(b) <= "z" else "A" if "A" <= chr(b) <= "Z" else "d" if chr(b).isdigit()
    else " "
    for b in range(0x80)
)  # fmt: skip
_MISPLACED_RUN = -3.0  # per three Latin non-ASCII letters in a row (Cyrillic read as Latin)
_MISPLACED = (
    # A capital right after a small letter.
    b"lu", b"au", b"lA", b"cC",
    # A letter against a digit.
    b"ld", b"dl", b"ud", b"du", b"cd", b"dc", b"Cd", b"dC",
    # A rare sign inside a word.
    b"axa", b"lxl", b"axl", b"lxa", b"cxc",
    # A non-ASCII capital before an ASCII capital and a small letter (`ŤEs` for `«Es`),
    # counted twice: running text has no such word.
    b"uAa", b"uAa",
    # A non-Latin letter against a Latin one.
    b"ac", b"ca", b"Ac", b"cA", b"aC", b"Ca", b"lc", b"cl", b"uc", b"cu",
)  # fmt: skip
_ASCII_BYTES = bytes(range(0x80))
_EPSILON = 1e-9
# Rarely served encodings must win clearly: this is added to their score.
_PRIOR = {"macintosh": -6.0}


# The language of a country-code TLD's pages, to break ties between readings (a Croatian `ž`
# and a Slovak `ľ` are one byte in ISO-8859-2 and windows-1250).
TLD_LANGUAGES: dict[str, str] = {
    "cz": "czech", "sk": "slovak", "pl": "polish", "hu": "hungarian", "hr": "south slavic",
    "si": "south slavic", "ba": "south slavic", "me": "south slavic", "tr": "turkish",
    "lv": "latvian", "lt": "lithuanian", "ee": "estonian", "mt": "maltese", "is": "icelandic",
    "fo": "faroese", "de": "german", "at": "german", "fr": "french", "es": "spanish",
    "pt": "portuguese", "br": "portuguese", "it": "italian", "nl": "dutch", "se": "nordic",
    "fi": "nordic", "dk": "nordic", "no": "nordic", "al": "albanian", "vn": "vietnamese",
    "gr": "greek", "ru": "russian", "ua": "ukrainian", "by": "belarusian", "bg": "bulgarian",
    "rs": "serbian", "mk": "macedonian", "il": "hebrew", "th": "thai",
}  # fmt: skip

# Bytes 0x80-0x9F are C1 control codes in every ISO-8859 encoding: text holding them is not
# ISO-8859 text.
C1_BYTES = bytes(range(0x80, 0xA0))
ISO_8859 = frozenset(name for name in CANDIDATES if name.startswith("ISO-8859-"))


def _is_broken(char: str) -> bool:
    return char == "\ufffd" or unicodedata.category(char) in ("Cc", "Cn", "Co")


def _is_latin(char: str) -> bool:
    return "LATIN" in unicodedata.name(char, "")


def _is_letter(char: str) -> bool:
    # Combining marks are letters here: Vietnamese tones, Hebrew points, Arabic and Thai vowels.
    return char.isalpha() or unicodedata.category(char) == "Mn"


@cache
def _class_table(encoding: str) -> bytes:
    """``bytes.translate`` table: each byte to its class letter under ``encoding``."""
    classes = []
    for char in charmap_table(encoding)[0x80:]:
        if unicodedata.category(char) == "Mn":
            classes.append("m")
        elif _is_letter(char):
            small = not char.isupper()
            classes.append(("l" if small else "u") if _is_latin(char) else ("c" if small else "C"))
        elif char.isdigit():
            classes.append("d")
        elif _is_broken(char) or (char not in _COMMON_SIGNS and char not in _IN_WORD_SIGNS):
            classes.append("x")
        else:
            classes.append(" ")
    return (_ASCII_CLASSES + "".join(classes)).encode("ascii")


def _letter_weight(char: str, frequent: str, other: str) -> float:
    small = char.lower()
    capital = char != small
    if small in frequent or char in frequent:
        weight = _FREQUENT
    elif small in other or char in other:
        weight = _OTHER
    else:
        return _FOREIGN
    return weight * _CAPITAL if capital else weight


@cache
def _weights(encoding: str, language: str) -> tuple[float, ...]:
    """The score of each byte 0x80-0xFF read in ``encoding`` as text in ``language``."""
    frequent, other = LANGUAGES[language]
    weights = []
    for char in charmap_table(encoding)[0x80:]:
        if _is_broken(char):
            weights.append(_BROKEN)
        elif _is_letter(char):
            weights.append(_letter_weight(char, frequent, other))
        elif char in _COMMON_SIGNS or char in _IN_WORD_SIGNS:
            weights.append(0.0)
        else:
            weights.append(_RARE_SIGN)
    return tuple(weights)


@cache
def languages_of(encoding: str) -> tuple[str, ...]:
    """The languages ``encoding`` can write: it has all their frequent letters."""
    table = set(charmap_table(encoding)[0x80:])
    table |= {char.lower() for char in table}
    return tuple(
        language
        for language, (frequent, _) in LANGUAGES.items()
        if all(char in table for char in frequent)
    )


@cache
def _run_table(encoding: str) -> bytes:
    """``bytes.translate`` table: under ``encoding``, non-ASCII Latin letters to ``L`` (for
    runs of them), broken characters to ``B``, anything else to a space."""
    marks = []
    for char in charmap_table(encoding)[0x80:]:
        if _is_broken(char):
            marks.append("B")
        elif _is_letter(char) and _is_latin(char) and unicodedata.category(char) != "Mn":
            marks.append("L")
        else:
            marks.append(" ")
    return (" " * 0x80 + "".join(marks)).encode("ascii")


def _run_score(marks: bytes) -> float:
    """The (negative) score of runs of non-ASCII Latin letters in the ``marks`` of a sample
    (three in a row are how Cyrillic, Greek or Arabic text reads in a Latin encoding)."""
    return _MISPLACED_RUN * marks.count(b"LLL")


def _misplaced_score(classes: bytes) -> float:
    """The (negative) score of the other misplaced characters in the ``classes`` of a sample."""
    return _CONTEXT * sum(map(classes.count, _MISPLACED))


@cache
def _best_weights(encoding: str) -> tuple[float, ...]:
    """Each byte's best weight over the encoding's languages: a bound on any language."""
    tables = [_weights(encoding, language) for language in languages_of(encoding)]
    return tuple(map(max, zip(*tables, strict=True))) if tables else (float("-inf"),) * 0x80


def letter_score(keys: list[int], numbers: list[int], encoding: str) -> float:
    """How much the non-ASCII bytes (``keys`` - 0x80, seen ``numbers`` times) read as letters
    of one language in ``encoding``, the best of its languages; ``-inf`` for none."""
    best = float("-inf")
    for language in languages_of(encoding):
        weights = _weights(encoding, language)
        best = max(best, sum(map(mul, numbers, map(weights.__getitem__, keys))))
    return best


def language_score(sample: bytes, encoding: str, language: str) -> float:
    """How much the non-ASCII bytes of ``sample`` read in ``encoding`` as letters of
    ``language``; ``-inf`` when the encoding cannot write it."""
    if language not in languages_of(encoding):
        return float("-inf")
    weights = _weights(encoding, language)
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    return sum(number * weights[byte - 0x80] for byte, number in counts.items())


def prefer_language(sample: bytes, tied: list[str], language: str | None) -> list[str]:
    """Of the ``tied`` readings, those that read ``sample`` best as ``language``, when they
    give different texts (all of them when they give one text, or none can write it)."""
    if language is None or len(tied) < 2:
        return tied
    texts = {name: sample.decode(get_encoding(name).python_codec, "replace") for name in tied}
    if len(set(texts.values())) == 1:
        return tied
    scores = {name: language_score(sample, name, language) for name in tied}
    top = max(scores.values())
    if top == float("-inf"):
        return tied
    chosen = {texts[name] for name in tied if scores[name] >= top - _EPSILON}
    return [name for name in tied if texts[name] in chosen]


def _language_words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


@cache
def _word_set(language: str) -> frozenset[str]:
    return frozenset(WORDS[language].split())


def prefer_words(sample: bytes, tied: list[str]) -> list[str]:
    """Of the ``tied`` readings (equal on their letters), those whose text holds clearly more
    frequent words of the language their letters read as; all of them when they give one
    text or the words do not tell them apart."""
    if len(tied) < 2:
        return tied
    around = b"\n".join(_AROUND_NON_ASCII.findall(sample))
    texts = {name: around.decode(get_encoding(name).python_codec, "replace") for name in tied}
    if len(set(texts.values())) == 1:
        return tied
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    hits: dict[str, int] = {}
    for name in tied:
        # The languages the reading's letters say (the best of the encoding's languages).
        letters = {
            language: sum(n * _weights(name, language)[b - 0x80] for b, n in counts.items())
            for language in languages_of(name)
        }
        if not letters:
            hits[name] = 0
            continue
        top = max(letters.values())
        words = _language_words(texts[name])
        hits[name] = max(
            sum(n for word, n in words.items() if word in _word_set(language))
            for language, score in letters.items()
            if score >= top - _EPSILON
        )
    best = max(hits.values())
    runners_up = [hits[name] for name in tied if hits[name] < best]
    second = max(runners_up, default=best)
    if second == best or best - second < _WORD_MARGIN:
        return tied
    return [name for name in tied if hits[name] == best]


def reading_score(sample: bytes, encoding: str) -> float:
    """The score of one reading (letters and context), as ``best_readings`` ranks it."""
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    keys = [byte - 0x80 for byte in counts]
    misplaced = _misplaced_score(sample.translate(_class_table(encoding)))
    context = _run_score(sample.translate(_run_table(encoding))) + misplaced
    return letter_score(keys, list(counts.values()), encoding) + context + _PRIOR.get(encoding, 0)


def best_readings(
    sample: bytes, candidates: tuple[str, ...] = CANDIDATES, ruled_out: frozenset[str] = frozenset()
) -> list[str]:
    """The candidates that read ``sample`` best, in ``candidates`` order (several when they
    score the same). Readings without broken characters go first, and those ``ruled_out`` by
    the rest of the page are not among them: structure before letters."""
    return list(ranked_readings(sample, candidates, ruled_out)[0])


# Runs of non-ASCII bytes less than five ASCII bytes apart, with two ASCII bytes either side.
_NON_ASCII_RUNS = lazy_compile(
    rb"[\x00-\x7f]{0,2}[\x80-\xff](?:[\x80-\xff]|[\x00-\x7f]{1,4}(?=[\x80-\xff]))*[\x00-\x7f]{0,2}"
)


def _near_non_ascii(sample: bytes) -> bytes:
    """The parts of ``sample`` the context scores look at: every misplaced pattern holds a
    non-ASCII byte and reaches at most two bytes from it, so the runs of non-ASCII bytes with
    two bytes of context, joined by newlines (which match no pattern), score as the whole
    sample does, at a fraction of the cost for Latin-script text."""
    return b"\n".join(_NON_ASCII_RUNS.findall(sample))


def ranked_readings(
    sample: bytes, candidates: tuple[str, ...] = CANDIDATES, ruled_out: frozenset[str] = frozenset()
) -> tuple[tuple[str, ...], float]:
    """``best_readings`` and their score."""
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    # (Text of a non-Latin script is mostly non-ASCII: the runs would be nearly all of it.)
    scored = sample if 4 * counts.total() > len(sample) else _near_non_ascii(sample)
    marks = {name: scored.translate(_run_table(name)) for name in candidates}
    intact = [name for name in candidates if name not in ruled_out and b"B" not in marks[name]]
    keys = [byte - 0x80 for byte in counts]
    numbers = list(counts.values())
    pool = intact or candidates
    # A bound on each reading's score: its bytes' best weights over all its languages, and the
    # runs of non-ASCII Latin letters (the other context scores are never positive). Readings
    # are scored in full in the order of their bounds, until no bound can beat the best.
    bounds = {}
    for name in pool:
        best_weights = _best_weights(name)
        letters_bound = sum(map(mul, numbers, map(best_weights.__getitem__, keys)))
        bounds[name] = letters_bound + _run_score(marks[name]) + _PRIOR.get(name, 0.0)
    totals: dict[str, float] = {}
    top = float("-inf")
    for name in sorted(pool, key=bounds.__getitem__, reverse=True):
        if bounds[name] < top - _EPSILON:
            break
        misplaced = _misplaced_score(scored.translate(_class_table(name)))
        context = _run_score(marks[name]) + misplaced + _PRIOR.get(name, 0.0)
        totals[name] = letter_score(keys, numbers, name) + context
        top = max(top, totals[name])
    return tuple(name for name in pool if totals.get(name, top - 1) >= top - _EPSILON), top
