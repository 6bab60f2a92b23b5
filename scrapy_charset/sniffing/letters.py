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

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache
from heapq import heapify, heappop, heappush
from operator import itemgetter, mul

from .._namedtuple import NamedTuple
from .._regex import lazy_compile
from ..encoding import get_encoding
from ..encoding.cjk import compiled
from ..encoding.fast import charmap_table

# Languages by their non-ASCII letters (lowercase): (frequent, other). Languages whose letters
# are all ASCII cannot tell encodings apart and are left out; closely related languages that
# share an alphabet are one entry.
LANGUAGES: dict[str, tuple[str, str]] = {
    "french": ("éèàçêâôîûùë", "ïüœæÿ"),
    "german": ("äöüß", "é"),
    # Spanish, Galician, Basque.
    "spanish": ("áéíóúñ", "ü"),
    # Irish: its own entry for its own words (`agus`, `ar`, `ag`): where `á` `í` tie with
    # windows-1257's Baltic `į` `ķ`, the words decide.
    "irish": ("áéíóú", ""),
    "portuguese": ("ãáâàçéêíóôõú", "ü"),
    "italian": ("àèéìòù", "íóúî"),
    "catalan": ("àèéíïòóúüç", ""),
    # Occitan writes Catalan's letters (`fòra`, `Dorsièr`) and `è` before a vowel (`rèire`).
    "occitan": ("àèéíòóç", "úïüâ"),
    "dutch": ("éëïöü", "èáó"),
    # (`sê`, `lêer`, `môre`, `geëet`: windows-1250 reads `ê` as Polish `ę`, the words decide.)
    "afrikaans": ("êëô", "éèïöûî"),
    # Swedish, Finnish, Danish and Norwegian (`š` `ž` in loanwords and names: `šakki`,
    # `Kambodža`, `Križevci`; Finnish writes no `æ` `ø`, Swedish no `æ` `ø` but in names).
    "swedish": ("äöå", "éüšž"),
    "finnish": ("äö", "åšž"),
    "danish norwegian": ("æøå", "éôòóäöüšž"),
    # (ð þ are also how Welsh ŵ ŷ read in windows-1252: where the letters tie, the words
    # around them tell the languages apart.)
    "icelandic": ("áéíóúæöðþ", "ý"),
    # (æ ý are also how Esperanto ĉ ŭ read in windows-1252: they count less.)
    "faroese": ("áíóúðø", "ýæ"),
    "albanian": ("çë", ""),
    "estonian": ("äõöü", "šž"),
    "polish": ("ąćęłńóśźż", ""),
    "czech": ("áčďéěíňóřšťúůýž", "äöü"),
    # (ä ĺ ŕ are rare in Slovak text, a few in ten thousand letters: windows-1250 reads
    # Swedish `å` and Italian `à` as `ĺ` `ŕ`.)
    "slovak": ("áčďéíľňóôšťúýž", "äĺŕöü"),
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
    # Breton (`emañ`, `levrioù`, `kêr`) and Scottish Gaelic (`thèid`, `òl`), ISO-8859-14's
    # languages with Welsh: where their words are around, the spelling rules that rule out a
    # final `ñ` (Spanish) and `è` before a vowel (French, Italian) do not count.
    "breton": ("ñùê", "âôûüé"),
    "scottish gaelic": ("àèìòù", "áéó"),
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
    # (The letters of 1.5% of Hebrew text and more are frequent, as for the other alphabets.)
    "hebrew": ("יוהאלרמתבשנעדכחקםפסן", "גזטצךףץ" + "".join(map(chr, range(0x05B0, 0x05C8)))),
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

# Frequent letters an encoding may lack and still write the language: Croatian text without
# `đ` is written in ISO-8859-13 and ISO-8859-4, Slovene never needs it.
_OPTIONAL_LETTERS: dict[str, str] = {"south slavic": "đ"}

# The most frequent words of each language (function words, most of them ASCII). Where two
# readings score the same or nearly on their letters but give different texts, the words
# around the non-ASCII bytes tell which language each reading is (Welsh `ŵyl` is `ðyl` in
# windows-1252, Icelandic letters: the Welsh words around it decide; Icelandic `það` is
# Lithuanian-looking `žaš` in windows-1257, the Icelandic words decide). Words of one letter
# are neither listed nor counted: they are words of too many languages (`a`, `i`, `o`), and
# text misread in another script makes them at random (8 of the 33 Russian letters are
# words). Thai has no spaces.
WORDS: dict[str, str] = {
    "french": "le la les de des et est un une du en que qui dans pour pas sur au avec il elle"
    " ne se ce plus par",
    "german": "der die das und ist nicht ein eine zu den von mit sich des auf dem im auch es"
    " wie sie",
    "spanish": "el la los las de del que en un una por con para es se no lo al como su",
    "portuguese": "os as de do da dos das que em um uma para com no na por se não ao aos mais"
    " mas foi ele ela tem seu sua quando muito já também pelo pela até isso entre era sem"
    " ser está são",
    "italian": "il lo la gli le di che un una per con non si del della sono nel al anche come"
    " questo questa ma ha dei delle alla nella dal dalla sul ogni loro quando dopo ancora"
    " essere stato molto",
    "catalan": "el la els les de que en un una per amb és del al als no es hi ho li són més"
    " però com aquest aquesta seu seva també pel dels quan molt",
    "occitan": "lo la los las de del dels que en un una per amb es son pas se dins aquò coma"
    " mai sus tanben lor sens fòrt èra cap totes",
    "dutch": "de het een en van is dat op te in niet zijn met voor die er aan ook",
    "afrikaans": "die en van is nie het wat te om dat op vir met sy word na ek hy jy kan hulle"
    " ons sal aan ook maar dit deur hierdie gaan baie moet nou nog kon sê",
    "swedish": "och att det som ett är på för av med inte har till var jag så kan ska från",
    "finnish": "ja on ei että se oli mutta kun ovat tai myös jos niin kuin sen hän ole voi tämä",
    "danish norwegian": "og er ikke til at jeg har af det som et på med var kan skal fra også hun"
    " han vil",
    "icelandic": "og er til sem ekki var hann um fyrir en eru hafa hefur það að við með",
    "faroese": "og er at til sum ikki eru hann hon av um fyri eitt ein var tað við",
    "albanian": "dhe te të në një per për me nga se është qe që nuk ka do ai ajo janë kjo ky"
    " por edhe kur duke ishte",
    "estonian": "ja on ei et see ka oli kui aga mis ta nad või ning ma sa nii siis veel kes"
    " kas mida seda tema juba ainult",
    "polish": "na nie do to jest się że jak ale po od za przez tak on ona co czy tylko już"
    " bardzo też jego jej ich był była było są może gdy ten dla oraz lub",
    "czech": "se na je do to že jsou ale jak pro od po by tak jako které si ve už jeho jen"
    " když také není jsem byl bylo být co při nebo však již mezi podle který kde až",
    "slovak": "sa na je do to že sú ale ako pre od po by tak aj si vo už jeho len keď tiež"
    " nie som bol bolo byť čo pri alebo však medzi podľa ktorý kde aby",
    "hungarian": "az és hogy nem is egy meg van de csak ez mint már volt el ki azt még vagy"
    " ha kell lesz után pedig nagyon mert sem ezt amely minden fel most",
    "south slavic": "je na da se za od su to ne kao ali iz što će sa pa so pri tudi kot"
    " bi ki še že",
    # (Words that are English too, `an` `is` `in`, are left out: Irish pages mix English.)
    "irish": "agus na ar ag go le sa don leis bhí atá níl seo sin ach nach tá sé sí ní",
    "romanian": "și de la în cu pe un care nu este mai din pentru sau ca se ce au fost dar"
    " prin să am fi lui al ale cel cea sunt după până când cum foarte doar acest această"
    " acum ei ea el noi vor va poate unui unei între fără are",
    "turkish": "ve bir bu da de için ile çok olarak gibi ama daha ne en ki her olan kadar"
    " sonra var yok ben sen biz değil veya göre",
    "kurdish": "li ji bi di de ku ew vê wê ya yê jî re ev yan jê tê kir heye min wan ser nav",
    "latvian": "un ir ar par no uz kas ka arī bet tas to vai lai nav es tu viņš viņa mēs pie"
    " pēc kā jau tikai vēl bija būs šis tā kad tad",
    "lithuanian": "ir yra kad su iš tai bet kaip jo nuo už apie ar per buvo tik jau dar kai"
    " jis ji mes jie taip arba kas ne bus po prie savo labai",
    "maltese": "il li ta tal fil għal ma minn bħala huwa hija kien dan din fuq jew biex kif"
    " wara anki kull għax lil mill jekk meta aktar hemm kienet",
    "esperanto": "la kaj de en estas al ne ke por kun mi li ŝi ili ĉi unu sed pri el pli tiu"
    " tio sur dum jam nur ankaŭ estis povas oni tre kiu kio kiel sia ĉu ol",
    "welsh": "yr yn ac mae wedi ei eu gyda oedd sydd hefyd bod fod ond hyn ddim ar am"
    " fel gan ym yng",
    "breton": "ar al ha hag eus war gant evit eo zo ket emañ eñ ez ul ur bet hep dre eget pe"
    " nag vez eur hon",
    "scottish gaelic": "agus air ann an na gu tha bha aig ri mar nach seo sin cha dhen leis bho"
    " airson",
    "vietnamese": "và của là có không được cho trong những các người một",
    "greek": "και το να του της την με σε για από που τα οι δεν στο στην είναι",
    "russian": "не на что по это как он из же для от но так",
    "ukrainian": "на що не та до це як за від його але для",
    "belarusian": "на што не да гэта як па ад для але яго",
    "bulgarian": "на за да се не от че по това са като но ще",
    "serbian": "на да се је за од су то не као али из са",
    "macedonian": "на да се за од со во не што го ќе ги тоа како",
    "hebrew": "של את על לא הוא זה עם היא גם כי אני כל אבל מה",
    "arabic": "في من على أن إلى عن مع هذا التي الذي ما لا كان هذه",
    "thai": "",
}
# Romanian in the encodings with the cedilla (`şi`): the same words.
WORDS["romanian with cedilla"] = WORDS["romanian"].translate(str.maketrans("șțȘȚ", "şţŞŢ"))
# A reading wins on words with at least this many more of its language's words than the other
# readings (one word may be a name or a quotation).
_WORD_MARGIN = 2
# Readings within this much per non-ASCII byte of the best letter score are near it: their
# words may decide between them.
_NEAR_PER_BYTE = 0.15
# Frequent words make up this share of running text at least (a fifth to a half, measured in
# the languages here); text misread as another language hits its words by chance only.
_WORD_SHARE = 0.1
_WORD = lazy_compile(r"\w\w+")
# English, all ASCII, reads alike in every encoding. Where a page holds English (menus,
# boilerplate around text in another language: words of English only, `the`, `our`), the
# words English shares with a language are evidence for no reading, and are not counted for
# it (Latvian `to`: `Welcome to our site` made an Irish `Oíche` read as Latvian `Oķche`);
# elsewhere they are that language's words (Hungarian `is`).
_ENGLISH_WORDS = frozenset(
    "the of and to in is it that for on as with was at by be this are or from an not but have"
    " he his they we you all can had her one our out so if no me my do go up us am new about"
    " more will has which their there were been who what when your".split()
)
# The text around non-ASCII bytes, within a text node: where the words are the page's words
# (a sample's filler can hold script).
_AROUND_NON_ASCII = lazy_compile(rb"[^<>]{0,64}[\x80-\xff][^<>]{0,64}")
# How much of that text the words are counted in (a few hundred words).
_AROUND_BYTES = 1024


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
_COMMON_SIGNS = set("\xa0\xad«»°©®–—‘’‚“”„…•·€£¥¢§¶±×¿¡™²³½¼¾ºª‹›₪؟،؛ـ\u200e\u200f฿")
# Apostrophes and hyphens may stand inside a word.
_IN_WORD_SIGNS = set("’‘'·\xad–-")
_FREQUENT, _OTHER, _FOREIGN, _RARE_SIGN, _BROKEN = 1.0, 0.4, -1.0, -0.5, -5.0
_CAPITAL = 0.5  # a capital letter counts half (running text is mostly small letters)
_CONTEXT = -1.0  # per misplaced character

# Byte classes for the context rules: ASCII small/capital letter, non-ASCII Latin small/capital
# letter, non-Latin small/capital letter (or caseless), Greek final sigma, digit, rare sign,
# anything else.
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
    # A combining mark (a vowel point, a tone) with no letter before it, at a word's start.
    b" m", b" n",
    # A mark of a non-Latin script (a Thai tone, a Hebrew or Arabic vowel point) on a Latin
    # letter (French `Créé` in windows-874: `Cr้้`).
    b"an", b"An", b"ln", b"un",
)  # fmt: skip
# Greek final sigma (class f) inside a word (Hebrew `ע` read as Greek); counted only where a
# reading has the letter.
_MISPLACED_FINAL = (b"fc", b"fC")
_ASCII_BYTES = bytes(range(0x80))
_EPSILON = 1e-9
# Rarely served encodings must win clearly: this is added to their score. (It was -6 when a
# short page's text was in the sample twice, its letters counted twice; half of that, -3,
# ties macintosh with windows-1250 on Croatian DOS 852 text Chromium shows as windows-1250:
# -3.5, measured with scripts/chromium/agreement.py.)
_PRIOR = {"macintosh": -3.5}


# The language of a country-code TLD's pages, to break ties between readings (a Croatian `ž`
# and a Slovak `ľ` are one byte in ISO-8859-2 and windows-1250).
TLD_LANGUAGES: dict[str, str] = {
    "cz": "czech", "sk": "slovak", "pl": "polish", "hu": "hungarian", "hr": "south slavic",
    "si": "south slavic", "ba": "south slavic", "me": "south slavic", "tr": "turkish",
    "lv": "latvian", "lt": "lithuanian", "ee": "estonian", "mt": "maltese", "is": "icelandic",
    "fo": "faroese", "de": "german", "at": "german", "fr": "french", "es": "spanish",
    "pt": "portuguese", "br": "portuguese", "ao": "portuguese", "mz": "portuguese",
    "it": "italian", "nl": "dutch", "se": "swedish", "fi": "finnish",
    "dk": "danish norwegian", "no": "danish norwegian", "al": "albanian", "vn": "vietnamese",
    "ie": "irish",
    # Romanian pages are served in windows-1250 and ISO-8859-2, whose `ş` `ţ` have the
    # cedilla; ISO-8859-16 (`ș` `ț`, the same bytes) is next to never served: the TLD says
    # the language, not the rare encoding, which wins on its own signs only (`„ ” €`).
    "ro": "romanian with cedilla", "md": "romanian with cedilla",
    # Spanish-speaking Latin America.
    **dict.fromkeys(
        ("mx", "ar", "cl", "co", "pe", "ve", "uy", "ec", "bo", "py", "cr", "cu", "do", "gt",
         "hn", "ni", "pa", "sv", "pr"),
        "spanish",
    ),
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
    # Combining marks are letters here: Vietnamese tones, Hebrew points, Arabic and Thai vowels;
    # the ordinal indicators `º ª` (`Nº 5`, `1ª`) are signs, though Unicode files them as letters.
    return (char.isalpha() and char not in _COMMON_SIGNS) or unicodedata.category(char) == "Mn"


@cache
def _class_table(encoding: str) -> bytes:
    """``bytes.translate`` table: each byte to its class letter under ``encoding``."""
    classes = []
    for char in charmap_table(encoding)[0x80:]:
        if unicodedata.category(char) == "Mn":
            # (Thai, Hebrew and Arabic marks are their scripts' own; Vietnamese tones are
            # the combining diacritics any Latin letter may take.)
            classes.append("m" if "\u0300" <= char <= "\u036f" else "n")
        elif char == "ς":
            classes.append("f")
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


@cache
def sign_bytes(encoding: str) -> bytes:
    """The non-ASCII bytes ``encoding`` reads as punctuation or signs of running text."""
    classes = _class_table(encoding)
    return bytes(byte for byte in range(0x80, 0x100) if classes[byte] == ord(" "))


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
    """The languages ``encoding`` can write: it has all their frequent letters (but those a
    language can do without)."""
    table = set(charmap_table(encoding)[0x80:])
    table |= {char.lower() for char in table}
    return tuple(
        language
        for language, (frequent, _) in LANGUAGES.items()
        if all(char in table or char in _OPTIONAL_LETTERS.get(language, "") for char in frequent)
    )


@cache
def _run_table(encoding: str) -> bytes:
    """``bytes.translate`` table: under ``encoding``, non-ASCII Latin letters to ``L`` (for
    runs of them), broken characters to ``B``, ASCII letters to ``a``, anything else to a
    space."""
    marks = []
    for char in charmap_table(encoding)[0x80:]:
        if _is_broken(char):
            marks.append("B")
        elif _is_letter(char) and _is_latin(char) and unicodedata.category(char) != "Mn":
            marks.append("L")
        else:
            marks.append(" ")
    ascii_marks = "".join("a" if chr(byte).isalpha() else " " for byte in range(0x80))
    return (ascii_marks + "".join(marks)).encode("ascii")


# Letters that are consonants though their decomposition has no ASCII consonant.
_OTHER_CONSONANTS = set("łđßðþŧŋĸħ")
_VOWELS = set("aeiouy")
# The vowels with a diacritic that are words on their own, by language (French and Portuguese
# `à`, Portuguese `é`, Italian `è`, Icelandic and Faroese `á` `í`, Norwegian `å`, Welsh `â`,
# Lithuanian `į`, Hungarian `ő`, Spanish and Portuguese `ó`: `3 ó 4`); in an encoding, those of
# the languages it can write. The others standing alone are signs misread (and `ó` alone is no
# Polish: Spanish `uno ó dos` read as windows-1250).
_ONE_LETTER_WORDS: dict[str, str] = {
    "french": "à", "portuguese": "àéó", "spanish": "ó", "italian": "è", "icelandic": "áí",
    "faroese": "áí", "danish norwegian": "å", "welsh": "â", "lithuanian": "į", "hungarian": "ő",
    "vietnamese": "àáâèéíó",
}  # fmt: skip
# Bytes that are a one-letter word in an encoding but the sign that stands alone between words
# in windows-1252, the encoding served most: macintosh `ó` is windows-1252's `—` (0x97); and
# Cyrillic capitals no language writes as a word alone where windows-1252 has its dashes
# (`–` `—`, 0x96 0x97, are `Ц` `Ч` in x-mac-cyrillic and IBM866: Spanish dialogue's
# `—¡Hola!` is no `Ч°Hola!`).
_DASH_LOOKALIKES = {"macintosh": b"\x97", "x-mac-cyrillic": b"\x96\x97", "IBM866": b"\x96\x97"}


def _is_consonant(char: str) -> bool:
    """Whether the Latin letter ``char`` is a consonant (`ž`, `ł`; not `é`, `æ`, `ı`)."""
    small = char.lower()
    base = unicodedata.normalize("NFD", small)[0]
    if small in _OTHER_CONSONANTS:
        return True
    return base.isascii() and base.isalpha() and base not in _VOWELS


@cache
def _one_letter_words(encoding: str) -> frozenset[str]:
    """The vowels with a diacritic that are words on their own in a language ``encoding``
    can write."""
    return frozenset("".join(_ONE_LETTER_WORDS.get(name, "") for name in languages_of(encoding)))


def _is_never_alone(char: str, words: frozenset[str]) -> bool:
    """Whether the non-ASCII Latin letter ``char`` is no word on its own: a consonant (`ž`),
    a vowel with a diacritic that is not one of the one-letter ``words`` (`ó`, `ï`, `Ö`), or
    `œ` (ISO-8859-15's reading of windows-1252's `½`: `½ kg`)."""
    if _is_consonant(char):
        return True
    small = char.lower()
    if small == "œ":
        return True
    base = unicodedata.normalize("NFD", small)[0]
    return base in _VOWELS and small != base and small not in words


@cache
def _lone_table(encoding: str) -> bytes:
    """``bytes.translate`` table: under ``encoding``, non-ASCII Latin letters that are no word
    on their own and the dash lookalikes to ``k``, other letters and digits to ``a``, anything
    else to a space (for such letters standing alone)."""
    marks = []
    dashes = _DASH_LOOKALIKES.get(encoding, b"")
    words = _one_letter_words(encoding)
    for byte, char in enumerate(charmap_table(encoding)):
        never_alone = byte in dashes or (_is_latin(char) and _is_never_alone(char, words))
        if byte >= 0x80 and char.isalpha() and never_alone:
            marks.append("k")
        elif char.isalnum() or (byte >= 0x80 and _is_letter(char)):
            marks.append("a")
        else:
            marks.append(" ")
    return "".join(marks).encode("ascii")


@cache
def _lone_keys(encoding: str) -> frozenset[int]:
    """The non-ASCII bytes (- 0x80) ``encoding`` reads as letters that are no word alone."""
    table = _lone_table(encoding)
    return frozenset(byte - 0x80 for byte in range(0x80, 0x100) if table[byte] == ord("k"))


def _lone_score(marks: bytes) -> float:
    """The (negative) score of letters standing alone as words in the ``marks`` of a sample
    that are no word in any language: consonants with a diacritic (a `¾` read as `ž`), and
    vowels with one but the few one-letter words (a `—` read as `ó`). Each counts, also where
    two stand a space apart (`» ©` read as ISO-8859-2's `ť Š`)."""
    return _CONTEXT * marks.replace(b" ", b"  ").count(b" k ")


# A word holding an ASCII letter (from its start: linear time, one try per word).
_WORD_WITH_ASCII = lazy_compile(rb"(?<![aL])L*a[aL]*")


def _run_score(marks: bytes) -> float:
    """The (negative) score of runs of non-ASCII Latin letters in the ``marks`` of a sample
    (three in a row are how Cyrillic, Greek or Arabic text reads in a Latin encoding), but in
    words that hold ASCII letters too (Cyrillic read as Latin has none; Estonian `Brošüür`)."""
    if b"LLL" not in marks:
        return 0.0
    if b"aL" in marks or b"La" in marks:
        marks = _WORD_WITH_ASCII.sub(b" ", marks)
    return _MISPLACED_RUN * marks.count(b"LLL")


def _misplaced_score(classes: bytes) -> float:
    """The (negative) score of the other misplaced characters in the ``classes`` of a sample:
    each pattern's ``classes.count``, the two-letter ones all at once (``_pair_count``)."""
    present = frozenset(letter for letter in _LONG_LETTERS if letter in classes)
    long = sum(map(classes.count, _possible_patterns(present)))
    return _CONTEXT * (_pair_count(classes) + long)


def _pair_count(classes: bytes) -> int:
    """How many times the two-letter misplaced patterns occur in ``classes``: what each one's
    ``classes.count`` adds up to (two different letters: no occurrences overlap), in one pass
    instead of one search each (a sample of random bytes holds many classes: 25 searches).
    Each byte becomes its class's index (below 16), and the bytes of one big integer's
    sum of it times 16 and shifted by a byte are the pairs' codes (the first letter's
    index + 16 times the next one's; no byte carries), of which those not of a pattern are
    deleted."""
    if len(classes) < 2:
        return 0
    number = int.from_bytes(classes.translate(_CLASS_INDEX), "big")
    pairs = ((number << 4) + (number >> 8)).to_bytes(len(classes), "big")
    # (The first byte pairs the first letter with nothing.)
    return len(pairs.translate(None, _NOT_PAIR_CODES)) - (pairs[0] in _PAIR_CODES)


# The class letters (every byte a class table gives: _class_table), each byte to its class
# index (any other byte to one no pattern has), and the two-letter patterns' codes.
_CLASSES = b"aAd mflucCxn"
_CLASS_INDEX = bytes(_CLASSES.find(byte) % 16 for byte in range(256))
_PAIRS = tuple(p for p in (*_MISPLACED, *_MISPLACED_FINAL) if len(p) == 2)
_PAIR_CODES = frozenset(_CLASSES.index(p[0]) + 16 * _CLASSES.index(p[1]) for p in _PAIRS)
_NOT_PAIR_CODES = bytes(sorted(frozenset(range(256)) - _PAIR_CODES))
_LONG_PATTERNS = tuple(p for p in (*_MISPLACED, *_MISPLACED_FINAL) if len(p) > 2)
# The class letters the longer misplaced patterns are made of.
_LONG_LETTERS = frozenset(b"".join(_LONG_PATTERNS))


@cache
def _possible_patterns(present: frozenset[int]) -> tuple[bytes, ...]:
    """The longer misplaced patterns made of the class letters ``present`` only (the others
    cannot occur: Arabic text has no Latin letter)."""
    return tuple(p for p in _LONG_PATTERNS if present.issuperset(p))


@cache
def _best_weights(encoding: str) -> tuple[float, ...]:
    """Each byte's best weight over the encoding's languages: a bound on any language."""
    tables = [_weights(encoding, language) for language in languages_of(encoding)]
    return tuple(map(max, zip(*tables, strict=True))) if tables else (float("-inf"),) * 0x80


def _language_scores(
    keys: list[int],
    numbers: list[int],
    encoding: str,
    weights_of: Callable[[tuple[float, ...]], tuple[float, ...]] | None = None,
) -> dict[str, float]:
    """How much the non-ASCII bytes (``keys`` - 0x80, seen ``numbers`` times) read as letters
    of each language ``encoding`` can write; ``weights_of`` is ``_getter(keys)`` if the
    caller has it (picking the weights at once costs less than a lookup each: the same
    products, summed in the same order). Kept for the sample's next questions (the ranking,
    the words and the rules each ask them of the same bytes; :func:`new_sample` forgets
    them): not to be changed."""
    key = (tuple(keys), tuple(numbers), encoding)
    scores = _LANGUAGE_SCORES.get(key)
    if scores is None:
        pick = _getter(keys) if weights_of is None else weights_of
        scores = {
            language: sum(map(mul, numbers, pick(_weights(encoding, language))))
            for language in languages_of(encoding)
        }
        if len(_LANGUAGE_SCORES) >= 256:  # (a sample's questions are fewer)
            _LANGUAGE_SCORES.clear()
        _LANGUAGE_SCORES[key] = scores
    return scores


_LANGUAGE_SCORES: dict[tuple[tuple[int, ...], tuple[int, ...], str], dict[str, float]] = {}


def new_sample() -> None:
    """Forget the scores kept for the last sample (a page's detection starts)."""
    _LANGUAGE_SCORES.clear()


def _getter(keys: list[int]) -> Callable[[tuple[float, ...]], tuple[float, ...]]:
    """A function picking the weights of ``keys`` (in order) out of a table of weights."""
    if len(keys) > 1:
        return itemgetter(*keys)
    if keys:
        key = keys[0]
        return lambda weights: (weights[key],)
    return lambda weights: ()


@cache
def _broken_keys(encoding: str) -> frozenset[int]:
    """The non-ASCII bytes (- 0x80) ``encoding`` reads as control codes or unassigned."""
    table = _run_table(encoding)
    return frozenset(byte - 0x80 for byte in range(0x80, 0x100) if table[byte] == ord("B"))


def _byte_counts(sample: bytes) -> tuple[list[int], list[int]]:
    """The distinct non-ASCII bytes of ``sample`` (- 0x80), in the order they first occur, and
    how often each occurs (counted in C when the package is built with it)."""
    if compiled is not None:
        return compiled.high_byte_counts(sample)  # type: ignore[no-any-return]
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    return [byte - 0x80 for byte in counts], list(counts.values())


def letter_score(keys: list[int], numbers: list[int], encoding: str) -> float:
    """How much the non-ASCII bytes (``keys`` - 0x80, seen ``numbers`` times) read as letters
    of one language in ``encoding``, the best of its languages; ``-inf`` for none."""
    return max(_language_scores(keys, numbers, encoding).values(), default=float("-inf"))


def language_score(sample: bytes, encoding: str, language: str) -> float:
    """How much the non-ASCII bytes of ``sample`` read in ``encoding`` as letters of
    ``language``; ``-inf`` when the encoding cannot write it."""
    return _language_scores(*_byte_counts(sample), encoding).get(language, float("-inf"))


def prefer_language(
    sample: bytes, tied: list[str], language: str | frozenset[str] | None
) -> list[str]:
    """Of the ``tied`` readings, those that read ``sample`` best as ``language`` (as the best
    of several languages), when they give different texts (all of them when they give one
    text, or none can write it)."""
    if not language or len(tied) < 2:
        return tied
    languages = frozenset((language,)) if isinstance(language, str) else language
    texts = _texts(sample, tied)
    if len(set(texts.values())) == 1:
        return tied
    # (With the context the ranking counted: the letters alone would bring back the misread
    # characters the context marked down, ISO-8859-7's `Σ’` as windows-1253's `ΣΆ`.)
    scores = {name: _score_as(sample, name, languages) for name in tied}
    top = max(scores.values())
    if top == float("-inf"):
        return tied
    chosen = {texts[name] for name in tied if scores[name] >= top - _EPSILON}
    return [name for name in tied if texts[name] in chosen]


def _texts(sample: bytes, names: list[str]) -> dict[str, str]:
    return {name: sample.decode(get_encoding(name).python_codec, "replace") for name in names}


def read_alike(sample: bytes, names: list[str]) -> bool:
    """Whether the encodings ``names`` read ``sample`` as one text."""
    return len(set(_texts(sample, names).values())) == 1


def _score_as(sample: bytes, encoding: str, languages: frozenset[str]) -> float:
    """How well ``encoding`` reads ``sample`` as the best of ``languages`` (letters and
    context); ``-inf`` when it can write none of them."""
    letters = _language_scores(*_byte_counts(sample), encoding)
    best = max((letters[name] for name in languages if name in letters), default=float("-inf"))
    return best if best == float("-inf") else best + context_score(sample, encoding)


@cache
def _word_set(language: str, english: bool = False) -> frozenset[str]:
    """The frequent words of ``language``; with ``english``, those that tell it from English."""
    words = frozenset(WORDS[language].split())
    return words - _ENGLISH_WORDS if english else words


@cache
def _english_only() -> frozenset[str]:
    """English's frequent words that are no frequent word of another language here."""
    return _ENGLISH_WORDS.difference(*(_word_set(language) for language in WORDS))


def _around_non_ascii(sample: bytes) -> bytes:
    """The text around the first non-ASCII bytes of ``sample`` (about ``_AROUND_BYTES``)."""
    parts = []
    size = 0
    for match in _AROUND_NON_ASCII.finditer(sample):
        parts.append(match.group())
        size += len(parts[-1])
        if size >= _AROUND_BYTES:
            break
    return b"\n".join(parts)


# The words of a page's text are its runs of letters and non-ASCII bytes (its markup, scripts
# and styles taken out): each byte to its small letter, non-ASCII bytes to 0x80, any other to a
# space. The ASCII words, those without a non-ASCII byte (`Kde`, not the `n` and `dra` of
# `nádraží`), are the same in every reading.
_WORD_BYTES = bytes(
    byte if chr(byte).isalpha() and byte < 0x80 else 0x80 if byte >= 0x80 else 0x20
    for byte in range(256)
).lower()
# (A part of a page may cut a script or style: from its start tag to the part's end, and from
# the part's start to an end tag with no start tag before it, are taken out too.)
_MARKUP = lazy_compile(rb"(?is)<(script|style)\b.*?(?:</\1|\Z)|<[^<>]*>")
_SCRIPT_TAG = lazy_compile(rb"(?i)<(/?)(?:script|style)\b")
# Fewer non-ASCII bytes than this are too few for the languages their letters say to outweigh
# the language of the page's words.
_FEW_LETTERS = 16


@cache
def _languages_of_words(english: bool) -> dict[bytes, tuple[str, ...]]:
    """Each ASCII frequent word (bytes): the languages it is a frequent word of (with
    ``english``, those it tells from English)."""
    table: dict[bytes, list[str]] = {}
    for language in WORDS:
        for word in _word_set(language, english):
            if word.isascii():
                table.setdefault(word.encode("ascii"), []).append(language)
    return {word: tuple(languages) for word, languages in table.items()}


@cache
def _english_only_bytes() -> frozenset[bytes]:
    return frozenset(word.encode("ascii") for word in _english_only())


@lru_cache(maxsize=4)
def _ascii_words(page: bytes) -> dict[bytes, int]:
    """How often each ASCII word of two letters or more stands in the text of ``page``."""
    first = _SCRIPT_TAG.search(page)
    if first is not None and first.group(1):  # the part starts inside a script or style
        page = page[first.end() :]
    runs = Counter(_MARKUP.sub(b" ", page).translate(_WORD_BYTES).split())
    return {run: number for run, number in runs.items() if len(run) > 1 and run.isalpha()}


def _words_and_languages(
    page: bytes,
) -> tuple[dict[bytes, int], dict[bytes, tuple[str, ...]]]:
    """The ASCII words of the text of ``page`` (``_ascii_words``) and the languages each
    frequent word is a word of (without those English shares, when the text holds English)."""
    words = _ascii_words(page)
    return words, _languages_of_words(not _english_only_bytes().isdisjoint(words))


@lru_cache(maxsize=4)
def page_word_hits(page: bytes) -> dict[str, int]:
    """How many of the ASCII words of the text of ``page`` (a part of a page) are frequent
    words of each language (without those English shares with it, when the text holds
    English); none when the best language's are fewer than two or than a tenth of the words:
    no language is said."""
    words, table = _words_and_languages(page)
    hits: Counter[str] = Counter()
    for word in table.keys() & words.keys():
        for language in table[word]:
            hits[language] += words[word]
    top = max(hits.values(), default=0)
    if top < _WORD_MARGIN or top < _WORD_SHARE * sum(words.values()):
        return {}
    return dict(hits)


@lru_cache(maxsize=4)
def page_is_english(page: bytes) -> bool:
    """Whether the ASCII words of the text of ``page`` are English: its English-only frequent
    words (`the`, `and`, `you`) are at least two and a tenth of its words, and more than any
    other language's (``page_word_hits``)."""
    words = _ascii_words(page)
    english = sum(number for word, number in words.items() if word in _english_only_bytes())
    if english < _WORD_MARGIN or english < _WORD_SHARE * sum(words.values()):
        return False
    return english > max(page_word_hits(page).values(), default=0)


def prefer_signs_in_english(
    sample: bytes, tied: list[str], candidates: tuple[str, ...], page: bytes
) -> list[str]:
    """English writes no non-ASCII letter: where the words of ``page`` are English and
    windows-1252, the encoding served most, is not among the ``tied`` readings but reads every
    non-ASCII byte of ``sample`` as a sign of running text (`“ ” — ½ µ`), the ``candidates``
    that read it as windows-1252 does, rather than macintosh's `ì î ó` (`wasóas`),
    ISO-8859-15's `œ` (`œ cup`) or ISO-8859-2's `ľ` (`5ľm`). The tied readings otherwise (an
    Irish `Tá` among English words is a letter, not macintosh's `T·`)."""
    keys = _byte_counts(sample)[0]
    if not keys or "windows-1252" in tied:
        return tied
    if not frozenset(key + 0x80 for key in keys) <= _english_signs():
        return tied
    if _sign_in_word().search(sample) is not None:
        # (English puts no sign between two letters of a word: `tak¿e`, `SK£ADNIA` are Polish
        # letters, a Polish phrase among English words.)
        return tied
    if not page_is_english(page):
        return tied
    return [name for name in candidates if read_alike(sample, ["windows-1252", name])]


# The signs English puts between two letters: apostrophes, hyphens and dashes, the ellipsis,
# quotes and bullets run against words, and the no-break space between words (`New York`).
_ENGLISH_IN_WORD_SIGNS = frozenset(_IN_WORD_SIGNS | set("—…“”•\xa0"))


@cache
def _sign_in_word() -> re.Pattern[bytes]:
    """A byte of ``_english_signs`` that English does not put between two letters
    (``_ENGLISH_IN_WORD_SIGNS``), between two ASCII letters."""
    table = charmap_table("windows-1252")
    inside = b"".join(
        b"\\x%02x" % byte
        for byte in sorted(_english_signs())
        if table[byte] not in _ENGLISH_IN_WORD_SIGNS
    )
    return re.compile(b"[A-Za-z][" + inside + b"][A-Za-z]")


@cache
def _english_signs() -> frozenset[int]:
    """The bytes windows-1252 reads as signs of English text: ``sign_bytes``, the
    superscript digits (`x²`) and the micro sign (`5µm`; Unicode files it as a letter, a
    foreign one in every language here)."""
    classes = _class_table("windows-1252")
    digits = {byte for byte in range(0x80, 0x100) if classes[byte] == ord("d")}
    return frozenset(sign_bytes("windows-1252")) | digits | {0xB5}


def page_languages(page: bytes) -> frozenset[str]:
    """The languages the ASCII words of the text of ``page`` say: the one most of them are
    frequent words of, and those with nearly as many (languages share words: Czech and Slovak
    `je`, `do`, French and Romanian `de`, `la`)."""
    hits = page_word_hits(page)
    top = max(hits.values(), default=0)
    return frozenset(name for name, number in hits.items() if number > top - _WORD_MARGIN)


def prefer_page_words(sample: bytes, tied: list[str], page: bytes) -> list[str]:
    """Of the ``tied`` readings, those that read ``sample`` best as a language the words of
    ``page`` say (see ``prefer_language``), of those one of the readings reads it as: without
    a letter foreign to it (Romanian words prefer no French `ș` in ISO-8859-16 to a `ş`
    windows-1250 cannot write as French)."""
    if len(tied) < 2 or read_alike(sample, tied):
        return tied
    keys = _byte_counts(sample)[0]
    languages = frozenset(
        language
        for language in page_languages(page)
        if any(_reads_as(keys, name, frozenset((language,))) for name in tied)
    )
    return prefer_language(sample, tied, languages)


def prefer_clear_page_language(
    sample: bytes,
    tied: list[str],
    score: float,
    candidates: tuple[str, ...],
    page: bytes,
    ruled_out: frozenset[str] = frozenset(),
) -> list[str]:
    """Where the words of ``page`` say their language clearly (:func:`page_language_is_clear`),
    none of the ``tied`` readings (``score``: their score) is in an encoding that language is
    usually served in (:func:`usual_encodings`), and they win as another language, on the
    letters of a foreign name (Icelandic `Norðurþing` in German text read as windows-1257's
    Baltic `Noršuržing`, `Võro` among Italian words as ISO-8859-3's Maltese `Vġro`): the
    ``candidates`` in the usual encodings (but those ``ruled_out``) that read ``sample`` as the
    words' language as well as any reading within the margin below ``score`` does, in
    candidate order. The tied readings otherwise (a Slovak name among Romanian words
    keeps ISO-8859-2's `Ľ`: Romanian is served in both ISO-8859-2 and windows-1250)."""
    if not tied or not page_language_is_clear(page):
        return tied
    languages = page_languages(page)
    usual = frozenset().union(*(usual_encodings(language) for language in languages))
    if usual.isdisjoint(candidates) or not usual.isdisjoint(tied):
        return tied
    as_page = max(_score_as(sample, name, languages) for name in tied)
    if as_page >= score - _EPSILON:
        return tied  # the winners read the words' language
    keys, numbers = _byte_counts(sample)
    # The language the winners read is one the words do not say: its own words (those the
    # words' language does not share) are fewer than half the words' language's.
    theirs = frozenset().union(
        *(_said_languages(_language_scores(keys, numbers, name), 0.0) for name in tied)
    )
    own = _own_word_hits(page, languages)
    if 2 * max((own[language] for language in theirs), default=0) > max(
        page_word_hits(page).values()
    ):
        return tied
    near = _NEAR_PER_BYTE * sum(numbers)
    winner = charmap_table(tied[0])
    # (Letters stay letters: a reading that makes a name's letter a sign reads the words'
    # language better only by reading the name as no word. Bytes in no word with an ASCII
    # letter are no name's: guillemets around nothing, `«»`, are no Slovak `Ťť`.)
    letters_of_tied = _keys_in_words(sample, tied[0]).intersection(
        *(_letter_keys(name) for name in tied)
    )
    scores: dict[str, float] = {}
    for name in candidates:
        if name in ruled_out or not letters_of_tied <= _letter_keys(name):
            continue
        # Within the margin: near on letters, or behind by no more than the letters it reads
        # otherwise are worth (each a letter of the winner's language, foreign to the words').
        table = charmap_table(name)
        otherwise = sum(
            n
            for key, n in zip(keys, numbers, strict=True)
            if table[key + 0x80] != winner[key + 0x80]
        )
        lowest = score - max(near, _ONE_FOREIGN_LETTER * max(otherwise, 1)) - _EPSILON
        letters = _language_scores(keys, numbers, name)
        best = max(letters.values(), default=float("-inf")) + _PRIOR.get(name, 0.0)
        if best < lowest:  # (the context scores are never positive)
            continue
        context = context_score(sample, name)
        if best + context >= lowest:
            scores[name] = max(
                (letters[language] for language in languages if language in letters),
                default=float("-inf"),
            ) + context
    top = max(scores.values(), default=float("-inf"))
    if top == float("-inf") or top < as_page - _EPSILON:
        return tied
    chosen = [
        name for name in candidates if name in usual and scores.get(name, top - 1) >= top - _EPSILON
    ]
    return chosen or tied


# Encodings that serve the same languages: a locale default and its siblings.
_FAMILIES = (
    ("windows-1252", "ISO-8859-15"),
    ("windows-1250", "ISO-8859-2"),
    ("windows-1257", "ISO-8859-13", "ISO-8859-4"),
    ("windows-1254",),
    ("windows-1251", "KOI8-R", "KOI8-U", "ISO-8859-5", "IBM866", "x-mac-cyrillic"),
    ("windows-1253", "ISO-8859-7"),
    ("windows-1255", "ISO-8859-8"),
    ("windows-1256", "ISO-8859-6"),
    ("windows-1258",),
    ("windows-874",),
)


@cache
def usual_encodings(language: str) -> frozenset[str]:
    """The encodings pages in ``language`` are usually served in: the locale defaults of the
    TLDs whose language it is (``TLD_LANGUAGES``; windows-1252 where no default is listed or
    no TLD), with their siblings, those that can write the language. None for a language
    whose locale's encoding cannot write it (Romanian: ``.ro`` has no default of its own)."""
    from .tld import TLD_DEFAULTS

    defaults = {
        TLD_DEFAULTS[tld].name if tld in TLD_DEFAULTS else "windows-1252"
        for tld, name in TLD_LANGUAGES.items()
        if name == language
    } or {"windows-1252"}
    return frozenset(
        name
        for family in _FAMILIES
        if not defaults.isdisjoint(family)
        for name in family
        if language in languages_of(name)
    )


# What each letter of a foreign name is worth to the reading that makes it a letter of another
# language than the words' (a letter there, +1; foreign to the words' language, -1).
_ONE_FOREIGN_LETTER = 2.0


def page_language_is_clear(page: bytes) -> bool:
    """Whether the ASCII words of ``page`` say their language clearly: at least twice the
    margin, three different words of it (Polish `nad` three times is no Estonian page), and
    of words the rival language (the one they do not say with most words of its own there)
    does not share, twice as many as it has (Catalan `la` `per` `al` among Italian words are
    Italian's too, and say nothing between them)."""
    hits = page_word_hits(page)
    if not hits:
        return False
    languages = page_languages(page)
    top = max(hits.values())
    if top < 2 * _WORD_MARGIN:
        return False
    words, table = _words_and_languages(page)
    said = [word for word in words if not languages.isdisjoint(table.get(word, ()))]
    if len(said) < _CLEAR_WORDS:
        return False
    own = _own_word_hits(page, languages)
    if not own:
        return True
    rival, theirs = own.most_common(1)[0]
    ours = sum(words[word] for word in said if rival not in table[word])
    return ours >= 2 * theirs


_CLEAR_WORDS = 3


def _own_word_hits(page: bytes, languages: frozenset[str]) -> Counter[str]:
    """How many of the ASCII words of ``page`` are frequent words of each language, counting
    only the words that are none of ``languages``'s."""
    words, table = _words_and_languages(page)
    own: Counter[str] = Counter()
    for word, number in words.items():
        found = table.get(word, ())
        if languages.isdisjoint(found):
            for language in found:
                own[language] += number
    return own


def prefer_page_language(
    sample: bytes,
    tied: list[str],
    candidates: tuple[str, ...],
    page: bytes,
    ruled_out: frozenset[str] = frozenset(),
) -> list[str]:
    """Where ``sample`` has a few non-ASCII bytes only and the ASCII words of ``page`` (the
    part of the page around them) are clearly of another language than the ``tied``
    readings' letters say, the ``candidates`` (but those ``ruled_out``) that read every one of
    those bytes as a letter or a sign of the words' language, and read them as that language
    better than the tied readings do: ISO-8859-16's `„da”` among Romanian words is no Slovak
    `Ľdaľ` (ISO-8859-2). A letter or two weigh less than a page of words. The tied readings
    otherwise."""
    keys, numbers = _byte_counts(sample)
    high = sum(numbers)
    if not high or high >= _FEW_LETTERS:
        return tied
    if any(frozenset(sign_bytes(name)).issuperset(key + 0x80 for key in keys) for name in tied):
        # No letters (`’`, `£`): no language the words could contradict.
        return tied
    hits = page_word_hits(page)
    languages = page_languages(page)
    if not languages:
        return tied
    margin = _NEAR_PER_BYTE * high + _EPSILON
    said = frozenset().union(
        *(_said_languages(_language_scores(keys, numbers, name), margin) for name in tied)
    )
    top = max(hits.values())
    said_best = max((hits.get(language, 0) for language in said), default=0)
    if said & languages or top - said_best < _WORD_MARGIN or top < 2 * said_best:
        return tied
    # Where the words say their language clearly (twice the margins), a foreign name among
    # them may keep letters of another language (_reads_mostly_as); else every byte must be
    # the words' language's (a Croatian page's `uz` ×3 is no Latvian page).
    words = sum(_ascii_words(page).values())
    clearly = top >= 2 * _WORD_MARGIN and top >= 2 * _WORD_SHARE * words
    scores = {
        name: _score_as(sample, name, languages)
        for name in candidates
        if name not in ruled_out
        and (
            _reads_mostly_as(keys, numbers, name, languages)
            if clearly
            else _reads_as(keys, name, languages)
        )
    }
    best = max(scores.values(), default=float("-inf"))
    if best <= max(_score_as(sample, name, languages) for name in tied) + _EPSILON:
        return tied
    return [name for name in candidates if scores.get(name, best - 1) >= best - _EPSILON]


def _reads_mostly_as(
    keys: list[int], numbers: list[int], encoding: str, languages: frozenset[str]
) -> bool:
    """``_reads_as``, or nearly: ``encoding`` reads at least half of the non-ASCII bytes
    (``keys`` - 0x80, each ``numbers`` times) as letters of one of ``languages`` (signs do not
    count: a Slovak `Ľubomír` among Romanian words is no Romanian `„ubomír`), and each of the
    others as a letter of another of its languages (a foreign name among the words:
    `Šentjernej` among Italian ones), none broken or rare."""
    if _reads_as(keys, encoding, languages):
        return True
    others = [_weights(encoding, language) for language in languages_of(encoding)]
    if not all(any(weights[key] >= 0 for weights in others) for key in keys):
        return False
    total = sum(numbers)
    for language in languages.intersection(languages_of(encoding)):
        weights = _weights(encoding, language)
        if 2 * sum(n for key, n in zip(keys, numbers, strict=True) if weights[key] > 0) >= total:
            return True
    return False


def _reads_as(keys: list[int], encoding: str, languages: frozenset[str]) -> bool:
    """Whether ``encoding`` reads every byte of ``keys`` (- 0x80) as a letter or a sign of
    running text of one of ``languages`` (none foreign to it, rare or broken)."""
    for language in languages.intersection(languages_of(encoding)):
        weights = _weights(encoding, language)
        if all(weights[key] >= 0 for key in keys):
            return True
    return False


def _said_languages(letters: dict[str, float], margin: float) -> frozenset[str]:
    """The languages a reading's letters say (``letters``: each language's letter score): the
    best, and any within ``margin`` of it (Bulgarian and Russian letters score alike)."""
    top = max(letters.values(), default=0.0)
    return frozenset(name for name, score in letters.items() if score >= top - margin)


def _hits(words: Counter[str], languages: frozenset[str]) -> int:
    """How many of ``words`` are frequent words of one of ``languages``, the best of them
    (without those English shares with it, when ``words`` hold English)."""
    english = not _english_only().isdisjoint(words)
    return max(
        (
            sum(n for word, n in words.items() if word in _word_set(name, english))
            for name in languages
        ),
        default=0,
    )


def prefer_words(sample: bytes, tied: list[str], near: tuple[str, ...] = ()) -> list[str]:
    """Of the ``tied`` readings (equal on their letters), those whose text holds clearly more
    frequent words of the language their letters read as. Or instead, the readings ``near``
    them on letters that are another language, with twice the words of the tied ones
    (Icelandic text reads nearly as well as Lithuanian in windows-1257, in Lithuanian words
    it does not). Either way a winner's text is clearly made of its language's words (at
    least a tenth of them: two Latvian words by chance in Basque text are not). All of the
    tied readings when they give one text or the words do not tell the readings apart."""
    if len(tied) + len(near) < 2:
        return tied
    keys, numbers = _byte_counts(sample)
    margin = _NEAR_PER_BYTE * sum(numbers) + _EPSILON
    said = {
        name: _said_languages(_language_scores(keys, numbers, name), margin)
        for name in (*tied, *near)
    }
    tied_languages = frozenset().union(*(said[name] for name in tied))
    others = [name for name in near if said[name] and not said[name] & tied_languages]
    if len(tied) < 2 and not others:
        return tied
    around = _around_non_ascii(sample)
    texts = {
        name: around.decode(get_encoding(name).python_codec, "replace") for name in (*tied, *others)
    }
    if len(set(texts.values())) == 1:
        return tied
    words: dict[str, Counter[str]] = {}
    for text in set(texts.values()):
        words[text] = Counter(_WORD.findall(text.lower()))
    hits = {name: _hits(words[texts[name]], said[name]) for name in texts}
    # Only a reading whose text is clearly its language's words can win on them.
    clear = {
        name: hits[name] for name in texts if hits[name] >= _WORD_SHARE * words[texts[name]].total()
    }
    tied_best = max(hits[name] for name in tied)
    near_best = max((clear[name] for name in others if name in clear), default=0)
    if near_best - tied_best >= _WORD_MARGIN and near_best >= 2 * tied_best:
        return [name for name in others if clear.get(name) == near_best]
    runners_up = [hits[name] for name in tied if hits[name] < tied_best]
    second = max(runners_up, default=tied_best)
    if second == tied_best or tied_best - second < _WORD_MARGIN:
        return tied
    return [name for name in tied if clear.get(name) == tied_best] or tied


# Polish writes a soft consonant before a vowel as `ni`, `si` (`nie`, `siebie`), so `ń` `ś`
# before a vowel are no Polish: they are how a Spanish `ñ` (`año`, `España`) or a French `œ`
# (`cœur`) read in windows-1250. (`ź` is left out: it is how DOS Latin 2's `č` reads there,
# text no browser decodes, which Chromium shows as windows-1250.)
_SOFT_CONSONANTS = "ńśŃŚ"
_VOWELS_AFTER_SOFT = "aeiouyAEIOUYąęóĄĘÓ"
# Slovak writes `l` for the soft `ľ` before `e`, `i`, `í` (`priateľ`, `priatelia`; `kráľ`,
# `králi`), and `ľ` is Slovak's only: `ľ` before them is how a Czech `ž` reads in windows-1250
# (ISO-8859-2's `nádraží` as `nádraľí`).
_SOFT_L = "ľĽ"
_FRONT_VOWELS = "eiíEIÍ"
# French, Italian and Catalan write `è` before a consonant (`père`, `règle`) or at a word's end
# (`è`, `caffè`, `què`), never before a vowel (Vietnamese `mèo`: not before `o`): `è` before
# `a` `e` `i` `u` is how a `č` reads in windows-1252 (Slovene `včeraj` as `vèeraj`, Czech
# `čas` as `èas`). (Scottish Gaelic does write it so, `thèid`, `fèin`: among Gaelic words the
# rule does not count.)
_GRAVE_E = "èÈ"
_VOWELS_AFTER_GRAVE = "aeiuAEIU"
# The openings of a Spanish question or exclamation and the marks that close it: a byte a
# reading takes for a letter, standing at a word's start, where windows-1252 reads `¿` (`¡`)
# and the clause it opens ends with `?` (`!`) is the mark misread (`¿es verdad?` read as
# windows-1250 `żes verdad?`).
_INVERTED_MARKS = ((0xBF, b"?"), (0xA1, b"!"))
# How far the closing mark may be (a short question or exclamation).
_INVERTED_REACH = 160
_TONOS_CAPITALS = "ΆΈΉΊΌΎΏ"
# `¡` opens an exclamation: at a word's start, never right after a letter or a digit, where
# it is a closing sign misread (ISO-8859-13's `”` in Finnish `”data”`, windows-1252's
# `¡data¡`). (Not `¿`: systems that lose a letter write `¿` for it, `Espa¿ol`, in text that
# is still windows-1252.)
_OPENING_MARK = "¡"
# Spanish writes `ñ` before a vowel only (`año`, `España`): `ñ` at a word's end or before a
# consonant is how a Polish `ń` reads in windows-1252 (`dzień` as `dzieñ`). (Breton does
# write it so, `emañ`, `soñj`: among Breton words the rule does not count.)
_NASAL = "ñÑ"
_VOWELS_AFTER_NASAL = "aeiouAEIOUáéíóúüÁÉÍÓÚÜ"
# Croatian, Bosnian, Serbian and Vietnamese write `đ` before a vowel only (`između`, `rođen`,
# `đi`) or at a word's end (`tuđ`): `đ` before a consonant is how the `š` of ISO-8859-13 and
# windows-1257 (0xF0) reads in ISO-8859-2 and windows-1250 (Slovene `število`, `piškotki` as
# `đtevilo`, `piđkotki`).
_DJ = "đĐ"
_DJ_CONSONANTS = "bcdfghjklmnpqrstvwxzčćšžBCDFGHJKLMNPQRSTVWXZČĆŠŽ"
# Greek aphaeresis: a word that drops its first vowel after a word ending in one keeps an
# apostrophe in its place (`θα ’ρθω`, `πού ’ναι`), which ISO-8859-7 writes as 0xA2, windows-1253's
# `Ά`. These are the verb forms Greek shortens so (of είναι, είμαι, είσαι, ήταν, έχω, είχα,
# έρθω, ήρθα, είπα, είδα, έκανα, έφυγα, έγινε, έρχεται and a few more past forms whose first
# vowel is the augment); with `Ά` before them they are no words.
_APHAERESIS_RESTS = (
    "ναι μαι σαι μαστε ταν χω χεις χει χουμε χετε χουν χα χες χε χαμε χαν ρθω ρθεις ρθει"
    " ρθουμε ρθετε ρθουν ρθα ρθες ρθε ρθαμε ρθαν πα πες πε παμε πατε παν δα δες δε δαμε δαν"
    " κανα κανες κανε φυγα φυγε γινε ρχεται ρχομαι φτασε ρχισε δωσε βαλε φερε μαθα μαθε"
    " στειλε λεγε"
).split()


# A spelling rule: the non-ASCII bytes (- 0x80) it is about, and a pattern finding where they
# break it. (Only samples holding one of the bytes are searched.)
_Rule = tuple[frozenset[int], re.Pattern[bytes]]


def _bytes_of(encoding: str, chars: str, start: int = 0) -> bytes:
    """The bytes from ``start`` on that ``encoding`` reads as one of ``chars``."""
    table = charmap_table(encoding)
    return bytes(byte for byte in range(start, 0x100) if table[byte] in chars)


def _pair_rule(encoding: str, first: str, second: str, keys_of: str) -> _Rule | None:
    """The rule finding a character of ``first`` before one of ``second`` in ``encoding``,
    about the bytes of the characters ``keys_of``; ``None`` when it has none of them."""
    first_bytes = _bytes_of(encoding, first)
    second_bytes = _bytes_of(encoding, second)
    keys = frozenset(byte - 0x80 for byte in _bytes_of(encoding, keys_of, 0x80))
    if not keys or not first_bytes or not second_bytes:
        return None
    pattern = b"[" + re.escape(first_bytes) + b"][" + re.escape(second_bytes) + b"]"
    return keys, re.compile(pattern)


@cache
def _soft_before_vowel(encoding: str) -> _Rule | None:
    """`ń` `ś` before a vowel in ``encoding``."""
    return _pair_rule(encoding, _SOFT_CONSONANTS, _VOWELS_AFTER_SOFT, _SOFT_CONSONANTS)


@cache
def _soft_l_before_front_vowel(encoding: str) -> _Rule | None:
    """`ľ` before `e`, `i`, `í` in ``encoding``."""
    return _pair_rule(encoding, _SOFT_L, _FRONT_VOWELS, _SOFT_L)


@cache
def _grave_e_before_vowel(encoding: str) -> _Rule | None:
    """`è` before `a`, `e`, `i`, `u` in ``encoding``."""
    return _pair_rule(encoding, _GRAVE_E, _VOWELS_AFTER_GRAVE, _GRAVE_E)


@cache
def _dj_before_consonant(encoding: str) -> _Rule | None:
    """`đ` before a consonant in ``encoding``."""
    return _pair_rule(encoding, _DJ, _DJ_CONSONANTS, _DJ)


@cache
def _tonos_capital_in_word(encoding: str) -> _Rule | None:
    """A Greek capital with a tonos right after a Greek letter in ``encoding``. Greek writes
    the tonos on a capital only at a word's start (words in capitals drop it): ISO-8859-7's
    apostrophe (`Σ’`) is windows-1253's `Ά` (`ΣΆ`)."""
    greek = "".join(
        char
        for char in charmap_table(encoding)[0x80:]
        if char.isalpha() and "GREEK" in unicodedata.name(char, "")
    )
    rule = _pair_rule(encoding, greek, _TONOS_CAPITALS, _TONOS_CAPITALS)
    if rule is None:
        return None
    table = charmap_table(encoding)
    greek_bytes = [b for b in range(0x100) if table[b] in greek]
    lower = re.escape(bytes(b for b in greek_bytes if table[b].islower()))
    upper = re.escape(bytes(b for b in greek_bytes if not table[b].islower()))
    letters = re.escape(bytes(b for b in range(0x100) if table[b].isalpha()))
    caps = re.escape(bytes(b for b in range(0x100) if table[b] in _TONOS_CAPITALS))
    return rule[0], re.compile(_tonos_pattern(lower, upper, letters, caps))


def _tonos_pattern(lower: bytes, upper: bytes, letters: bytes, caps: bytes) -> bytes:
    """A tonos capital (of ``caps``) after a small letter (``lower``), or after a capital
    (``upper``) standing alone (no letter of ``letters`` before it); character classes, each
    escaped. (The tonos capital first, so that the search skips to its bytes; one match per
    such capital, as many as the pairs of the plain pattern
    ``(?:[lower]|(?<![letters])[upper])[caps]``.)"""
    after_small = b"[" + lower + b"][" + caps + b"]"
    pair = b"[" + upper + b"][" + caps + b"]"
    after_lone = pair + b"(?<![" + letters + b"]" + pair + b")"
    return b"[" + caps + b"](?<=" + after_small + b"|" + after_lone + b")"


@cache
def _opening_mark_after_letter(encoding: str) -> _Rule | None:
    """`¡` right after a letter or a digit in ``encoding``."""
    letters = "".join(char for char in charmap_table(encoding) if char.isalnum())
    return _pair_rule(encoding, letters, _OPENING_MARK, _OPENING_MARK)


@cache
def _nasal_before_non_vowel(encoding: str) -> _Rule | None:
    """`ñ` at a word's end or before a consonant in ``encoding``."""
    nasals = _bytes_of(encoding, _NASAL, 0x80)
    if not nasals:
        return None
    vowels = _bytes_of(encoding, _VOWELS_AFTER_NASAL)
    pattern = b"[" + re.escape(nasals) + b"](?![" + re.escape(vowels) + b"])"
    return frozenset(byte - 0x80 for byte in nasals), re.compile(pattern)


# Esperanto's consonants with a circumflex but `ĉ` (`eĉ`, "even") end no word: its words end in
# a vowel or in `j` `n` `s` `ŭ` (a permalink `¶` glued to a word's end is ISO-8859-3's `ĥ`).
_CIRCUMFLEX_CONSONANTS = "ĝĥĵŝĜĤĴŜ"


@cache
def _circumflex_at_word_end(encoding: str) -> _Rule | None:
    """`ĝ ĥ ĵ ŝ` after a letter and before none in ``encoding``."""
    consonants = _bytes_of(encoding, _CIRCUMFLEX_CONSONANTS, 0x80)
    if not consonants:
        return None
    letters = _letter_bytes(encoding)
    pattern = b"(?<=[" + letters + b"])[" + re.escape(consonants) + b"](?![" + letters + b"])"
    return frozenset(byte - 0x80 for byte in consonants), re.compile(pattern)


def _encoded(text: str, encoding: str) -> bytes | None:
    """``text`` in ``encoding``; ``None`` when it has no byte for one of its characters."""
    try:
        return text.encode(get_encoding(encoding).python_codec)
    except UnicodeEncodeError:
        return None


def _keys_in_words(sample: bytes, encoding: str) -> frozenset[int]:
    """The non-ASCII bytes (- 0x80) of ``sample`` that ``encoding`` reads as Latin letters of
    a word with an ASCII letter (``_WORD_WITH_ASCII`` over its ``_run_table`` marks)."""
    marks = sample.translate(_run_table(encoding))
    found = b"".join(
        sample[match.start() : match.end()].translate(None, _ASCII_BYTES)
        for match in _WORD_WITH_ASCII.finditer(marks)
    )
    return frozenset(byte - 0x80 for byte in found)


@cache
def _letter_keys(encoding: str) -> frozenset[int]:
    """The non-ASCII bytes (- 0x80, as ``_byte_counts`` keys them) ``encoding`` reads as
    letters."""
    table = charmap_table(encoding)
    return frozenset(byte - 0x80 for byte in range(0x80, 0x100) if _is_letter(table[byte]))


def _letter_bytes(encoding: str) -> bytes:
    """The bytes ``encoding`` reads as letters, escaped for a character class."""
    table = charmap_table(encoding)
    return re.escape(bytes(byte for byte in range(0x100) if _is_letter(table[byte])))


@cache
def _alpha_before_aphaeresis(encoding: str) -> _Rule | None:
    """`Ά` starting a word that is one of Greek's shortened verb forms (`Άναι` for `’ναι`)
    in ``encoding``."""
    capital = _encoded("Ά", encoding)
    rests = [rest for rest in (_encoded(rest, encoding) for rest in _APHAERESIS_RESTS) if rest]
    if capital is None or not rests:
        return None
    letters = _letter_bytes(encoding)
    # (The byte first, so that it is searched for as a literal.)
    opening = re.escape(capital)
    pattern = (
        opening + rb"(?<![" + letters + b"]" + opening + b")(?:"
        + b"|".join(map(re.escape, rests)) + rb")(?![" + letters + b"])"
    )  # fmt: skip
    return frozenset((capital[0] - 0x80,)), re.compile(pattern)


def _inverted_clause(byte: int, closing: bytes, word: bytes = b"") -> re.Pattern[bytes]:
    """A pattern finding ``byte`` at a word's start, then a clause without a sentence's end,
    then ``closing``; with ``word``, only the clauses whose first word the byte starts is one
    of ``word`` (a pattern of alternatives). (The byte comes first, so that it is searched for
    as a literal; a full stop inside a number or an abbreviation ends no sentence: `3.000`.)"""
    opening = re.escape(bytes((byte,)))
    stops = re.escape(b".?!<>\n" + bytes((byte,)))
    clause = rb"(?:[^%s]|\.(?=\w)){1,%d}" % (stops, _INVERTED_REACH)
    # (Spanish writes `e` for `y` before a word starting with `i` or `hi`: `¿e Ignacio?` is
    # still a question.)
    first = rb"(?=(?:%s)(?![\w\x80-\xff])(?! +[Hh]?[Ii]))" % word if word else b""
    # (A dash may stand before it: Spanish dialogue opens with one, `—¿Cinco ó seis?`, the
    # windows encodings' 0x96 0x97.)
    after = rb"(?<![\w\x80-\x95\x98-\xff]" + opening + b")"
    return re.compile(opening + after + first + clause + re.escape(closing))


_INVERTED_CLAUSES = tuple(_inverted_clause(byte, closing) for byte, closing in _INVERTED_MARKS)


@lru_cache(maxsize=4)
def _inverted_clauses(sample: bytes) -> tuple[int, ...]:
    """How many clauses each of ``_INVERTED_MARKS`` opens in ``sample`` (the same for every
    reading: counted once)."""
    return tuple(len(pattern.findall(sample)) for pattern in _INVERTED_CLAUSES)


@cache
def _inverted_letters(encoding: str) -> tuple[bool, ...]:
    """Whether ``encoding`` reads each byte of ``_INVERTED_MARKS`` as a letter."""
    table = charmap_table(encoding)
    return tuple(_is_letter(table[byte]) for byte, _ in _INVERTED_MARKS)


@cache
def _word_clauses(encoding: str) -> tuple[re.Pattern[bytes] | None, ...]:
    """For each byte of ``_INVERTED_MARKS``, the clauses it opens whose first word is a
    frequent word of a language ``encoding`` writes, starting with the letter it reads the
    byte as (Polish `że`, windows-1252's `¿e`, opening `że on przyjdzie?`); ``None`` when no
    such word starts with it."""
    table = charmap_table(encoding)
    patterns: list[re.Pattern[bytes] | None] = []
    for byte, closing in _INVERTED_MARKS:
        words = {
            word
            for language in languages_of(encoding)
            for word in WORDS[language].split()
            if word[0] == table[byte]
        }
        rests = sorted(rest for rest in (_encoded(word[1:], encoding) for word in words) if rest)
        word = b"|".join(map(re.escape, rests))
        patterns.append(_inverted_clause(byte, closing, word) if word else None)
    return tuple(patterns)


def _misread_marks(sample: bytes, encoding: str) -> int:
    """How many clauses in ``sample`` open with a byte ``encoding`` reads as a letter where
    windows-1252 reads `¿` (`¡`) and ``?`` (``!``) closes them: misread marks, but those that
    start a frequent word of the reading's language, which the letter is."""
    clauses = zip(
        _inverted_clauses(sample), _inverted_letters(encoding), _word_clauses(encoding),
        strict=True,
    )  # fmt: skip
    return sum(
        count - (len(word.findall(sample)) if word is not None else 0)
        for count, letter, word in clauses
        if letter and count
    )


def _structure_score(scored: bytes, sample: bytes, keys: list[int], encoding: str) -> float:
    """The (negative) score of letters the spelling of their language rules out: a soft
    consonant before a vowel, `ľ` before `e` `i` `í`, `è` before a vowel but `o`, `đ` before
    a consonant, a Greek capital with a tonos inside a word, `ñ` before no vowel, Esperanto's
    `ĝ ĥ ĵ ŝ` at a word's end, `¡` after a letter, `Ά` before a shortened Greek verb (found
    in ``scored``, which holds a few bytes around each non-ASCII byte), an inverted mark read
    as a letter (its clause, in the whole ``sample``)."""
    score = 0.0
    for (rule_keys, pattern), spelled_so in _pair_rules(encoding):
        if rule_keys.isdisjoint(keys):
            continue
        found = len(pattern.findall(scored))
        if found and spelled_so and not spelled_so.isdisjoint(page_languages(sample)):
            continue  # the words around are of a language that spells so
        score += _CONTEXT * found
    if 0xBF - 0x80 in keys or 0xA1 - 0x80 in keys:
        score += _CONTEXT * _misread_marks(sample, encoding)
    return score


@cache
def _pair_rules(encoding: str) -> tuple[tuple[_Rule, frozenset[str]], ...]:
    """The spelling rules about bytes next to each other that ``encoding`` has bytes for,
    each with the languages that do spell so (where the words of the sample say one of them,
    the rule does not count: Breton ends words in `ñ`, Scottish Gaelic writes `è` before `i`)."""
    rules = (
        (_soft_before_vowel(encoding), ()),
        (_soft_l_before_front_vowel(encoding), ()),
        (_grave_e_before_vowel(encoding), ("scottish gaelic", "occitan")),
        (_dj_before_consonant(encoding), ()),
        (_tonos_capital_in_word(encoding), ()),
        (_nasal_before_non_vowel(encoding), ("breton",)),
        (_circumflex_at_word_end(encoding), ()),
        (_opening_mark_after_letter(encoding), ()),
        (_alpha_before_aphaeresis(encoding), ()),
    )
    return tuple((rule, frozenset(spelled_so)) for rule, spelled_so in rules if rule is not None)


def _context_score(
    scored: bytes, marks: bytes, keys: list[int], encoding: str, sample: bytes | None = None
) -> float:
    """A reading's score besides its letters: the context of its characters in ``scored``
    (the sample's non-ASCII bytes ``keys`` among them), its runs of Latin letters
    (``marks``), the spelling rules over the whole ``sample`` (``scored`` when not given),
    and the encoding's prior. Never positive."""
    # A sample starts at a word's start (a text node's, or ASCII before its first non-ASCII
    # byte), as its later parts start after a newline: a space before it, so that a mark or
    # a lone letter there counts as it does further on (`<p>Градската` in windows-1255).
    classes = b" " + scored.translate(_class_table(encoding))
    misplaced = _misplaced_score(classes)
    if not _lone_keys(encoding).isdisjoint(keys):
        misplaced += _lone_score(b" " + scored.translate(_lone_table(encoding)))
    misplaced += _structure_score(scored, scored if sample is None else sample, keys, encoding)
    return _run_score(marks) + misplaced + _PRIOR.get(encoding, 0.0)


def reading_score(sample: bytes, encoding: str) -> float:
    """The score of one reading (letters and context), as ``best_readings`` ranks it."""
    keys, numbers = _byte_counts(sample)
    return letter_score(keys, numbers, encoding) + context_score(sample, encoding)


def context_score(sample: bytes, encoding: str) -> float:
    """The score of one reading besides its letters (never positive)."""
    marks = sample.translate(_run_table(encoding))
    return _context_score(sample, marks, _byte_counts(sample)[0], encoding)


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


def _scored(sample: bytes, high: int) -> bytes:
    """The part of ``sample`` (with ``high`` non-ASCII bytes) the context scores look at."""
    return sample if _mostly_non_ascii(sample, high) else _near_non_ascii(sample)


def _mostly_non_ascii(sample: bytes, high: int) -> bool:
    """Whether the context of ``sample`` (with ``high`` non-ASCII bytes) is scored on all of
    it: text of a non-Latin script is mostly non-ASCII, its runs would be nearly all of it."""
    return 4 * high > len(sample)


def _pool(
    keys: list[int], candidates: tuple[str, ...], ruled_out: frozenset[str]
) -> tuple[str, ...]:
    """The readings ranked: the ``candidates`` not ``ruled_out`` that read none of the
    non-ASCII bytes ``keys`` (- 0x80) as broken; all ``candidates`` when none is left."""
    present = frozenset(keys)
    intact = tuple(
        name
        for name in candidates
        if name not in ruled_out and present.isdisjoint(_broken_keys(name))
    )
    return intact or candidates


def readings_below_zero(
    sample: bytes, candidates: tuple[str, ...] = CANDIDATES, ruled_out: frozenset[str] = frozenset()
) -> tuple[str, ...] | None:
    """The readings ``ranked_readings`` ranks (its pool), when each of them is shown to score
    below zero, so that its best ``score`` is below zero too; ``None`` when a reading is not
    shown to (it may still score below zero). Shown by a bound on each reading's score: the
    bound on its letters that ranking starts from, plus the two-letter misplaced patterns
    (``_pair_count``), a part of the context score whose other parts are never positive
    either. Some 10 us a reading, where ranking scores each language and the whole context
    (binary data, in the five encodings that read no byte as broken: some 200 us). The
    readings with the best letters come first: text is given up on at once; so is a sample
    mostly of ASCII bytes (binary data is not), whose context is scored on its runs of
    non-ASCII bytes, slower to find than a few readings are to rank."""
    keys, numbers = _byte_counts(sample)
    if not _mostly_non_ascii(sample, sum(numbers)):
        return None
    weights_of = _getter(keys)
    pool = _pool(keys, candidates, ruled_out)
    # (As ranking bounds the letters, with the prior.)
    letters_bounds = {
        name: sum(map(mul, numbers, weights_of(_best_weights(name)))) + _PRIOR.get(name, 0.0)
        for name in pool
    }
    for name in sorted(pool, key=letters_bounds.__getitem__, reverse=True):
        # (Counted on the classes _context_score counts them on: the sample's.)
        pairs = _pair_count(b" " + sample.translate(_class_table(name)))
        if letters_bounds[name] + _CONTEXT * pairs >= -_EPSILON:
            return None
    return pool


class Ranking(NamedTuple):
    """The readings that score best (``best``, in candidate order), their ``score``, and the
    other readings scoring within a small margin below it (``near``, in candidate order)."""

    best: tuple[str, ...]
    score: float
    near: tuple[str, ...]


def ranked_readings(
    sample: bytes, candidates: tuple[str, ...] = CANDIDATES, ruled_out: frozenset[str] = frozenset()
) -> Ranking:
    """``best_readings``, their score, and the readings near them."""
    keys, numbers = _byte_counts(sample)
    high = sum(numbers)
    scored = _scored(sample, high)
    pool = _pool(keys, candidates, ruled_out)
    # Readings are scored in full in the order of a bound on their score, until no bound can
    # beat the best. The bound is first their bytes' best weights over all their languages
    # (the context scores are never positive), then, when that comes first, tightened by the
    # runs of non-ASCII Latin letters (Greek text read as Latin has many).
    weights_of = _getter(keys)
    letters_bounds = {
        name: sum(map(mul, numbers, weights_of(_best_weights(name)))) + _PRIOR.get(name, 0.0)
        for name in pool
    }
    marks: dict[str, bytes] = {}
    bounds: dict[str, float] = {}

    def bound(name: str) -> float:
        if name not in bounds:
            marks[name] = scored.translate(_run_table(name))
            bounds[name] = letters_bounds[name] + _run_score(marks[name])
        return bounds[name]

    scores: dict[str, dict[str, float]] = {}

    def language_scores(name: str) -> dict[str, float]:
        if name not in scores:
            scores[name] = _language_scores(keys, numbers, name, weights_of)
        return scores[name]

    totals: dict[str, float] = {}

    def total(name: str) -> float:
        if name not in totals:
            letters = max(language_scores(name).values(), default=float("-inf"))
            totals[name] = letters + _context_score(scored, marks[name], keys, name, sample)
        return totals[name]

    top = float("-inf")
    # (A heap of the best bounds known, first in candidate order when equal.)
    heap = [(-letters_bounds[name], index, name) for index, name in enumerate(pool)]
    heapify(heap)
    while heap and -heap[0][0] >= top - _EPSILON:
        _, index, name = heappop(heap)
        if name not in bounds:
            heappush(heap, (-bound(name), index, name))
        else:
            top = max(top, total(name))
    best = tuple(name for name in pool if totals.get(name, top - 1) >= top - _EPSILON)
    # The readings within the margin below whose letters say other languages than the best
    # readings' (only these can the words prefer: see prefer_words).
    margin = _NEAR_PER_BYTE * high + _EPSILON
    said = frozenset().union(*(_said_languages(language_scores(name), margin) for name in best))
    near = set()
    for name in pool:
        if name in best or letters_bounds[name] < top - margin or bound(name) < top - margin:
            continue
        letters = language_scores(name)
        # (The context scores are never positive: the letters alone bound the total.)
        if max(letters.values(), default=top - margin - 1) < top - margin:
            continue
        if _said_languages(letters, margin) & said:
            continue
        if total(name) >= top - margin:
            near.add(name)
    return Ranking(best, top, tuple(name for name in pool if name in near))
