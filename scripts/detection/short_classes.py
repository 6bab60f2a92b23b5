"""Short undeclared pages (200-400 bytes) with a few non-ASCII bytes, by class of confusion.

Usage: python scripts/detection/short_classes.py [--per-class N] [--seed S] [--failures]

Each class is a language written in its usual legacy encodings, its sentences made at random
from word lists written here (ASCII words of the language around a few words with its
non-ASCII letters or signs: `¿`, `¡`, `ñ`, `£` before a price, a Greek apostrophe, Polish `że`
and `ń`, Romanian `„ ”` and `€`). Each page
is decoded by ``decode_html`` without a URL and with one on the language's ccTLD, and counted
right when its text is the true encoding's. Prints the right count per class and TLD.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from scrapy_charset.encoding import decode, get_encoding
from scrapy_charset.sniffing import decode_html

Sentence = Callable[[random.Random], str]


def _pick(rng: random.Random, words: str) -> str:
    return rng.choice(words.split("|"))


def _spanish(rng: random.Random) -> str:
    subject = _pick(rng, "el tiempo|la casa|mi amigo|el tren|la tienda|el libro|la playa")
    verb = _pick(rng, "es|parece|era|sigue|queda")
    adjective = _pick(rng, "bueno|caro|lejos|abierto|nuevo|grande|cerca")
    question = _pick(
        rng,
        "¿uno ó dos?|¿es verdad?|¿de verdad?|¿por que no?|¿quieres venir?|¿vienes hoy?"
        "|¿a que hora?|¿y tu?|¿estas bien?|¿nos vemos?|¿para cuando?|¿sabes donde?"
        "|¿cuanto cuesta?|¿otra vez?|¿lo tienes?",
    )
    exclaim = _pick(rng, "¡vamos!|¡que bien!|¡hola!|¡ya esta!|¡claro!|¡venga!")
    n_word = _pick(rng, "mañana|año|España|niño|señor|pequeña|montaña|compañero|sueño")
    forms = (
        f"{subject.capitalize()} {verb} {adjective}, {question}",
        f"Pregunta: {question} Dice que {subject} {verb} {adjective}.",
        f"{exclaim.capitalize()} {subject.capitalize()} {verb} {adjective} {n_word}.",
        f"Y el {n_word} {verb} {adjective}, {question}",
        f"{question.capitalize()} {subject.capitalize()} {verb} {adjective}.",
    )
    return rng.choice(forms)


def _spanish_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "Los precios de la semana son para todos los clientes.|Todos los dias hay un tren"
        " para la ciudad.|El centro abre de lunes a viernes por la tarde.|Los libros de este"
        " mes son de historia y de viajes.|Con la tarjeta se paga menos en la tienda.",
    )


def _portuguese(rng: random.Random) -> str:
    return _pick(
        rng,
        "A informação está no site.|Não sei se ele vem.|O coração da cidade é a praça.|Você"
        " pode ver as opções.|A educação é para todos.|Os preços estão em promoção.|Ele"
        " não viu a mãe.|As eleições são em outubro.",
    )


def _portuguese_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "O centro abre de segunda a sexta.|Todos os dias tem um trem para a cidade.|Os livros"
        " do mes sao de historia.|Com o cartao se paga menos na loja.",
    )


def _catalan(rng: random.Random) -> str:
    return _pick(
        rng,
        "La ciutat és molt bonica.|El col·legi obre a les vuit.|Això és la plaça del"
        " mercat.|Què vols fer avui?|La història de la vila és llarga.|Anirem a la"
        " platja demà.|El públic va aplaudir molt.",
    )


def _catalan_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "El centre obre de dilluns a divendres.|Tots els dies hi ha un tren per a la"
        " ciutat.|Els llibres del mes son de viatges.|Amb la targeta es paga menys.",
    )


def _romanian(rng: random.Random) -> str:
    return _pick(
        rng,
        "Aceasta este o țară frumoasă.|Știm că vine mâine.|Prețul este mic în această"
        " lună.|Școala începe în septembrie.|Orașul are o piață mare.|Ne vedem la"
        " București.|Mașina este în parcare.",
    )


def _romanian_signs(rng: random.Random) -> str:
    """Romanian with the signs ISO-8859-16 has where windows-1250 reads letters: `„ ”` (`Ą µ`)
    and `€` (`¤`); in windows-1250 they are bytes 0x80-0x9F, no ISO-8859 text."""
    return _pick(
        rng,
        "El a spus „Vin mâine” și a plecat.|Filmul „Țara noastră” rulează acum.|Biletul"
        " costă 12 €.|Prețul: 45,50 € pe noapte.|Cartea „Școala de vară” a apărut.|Oferta"
        " de 99 € este valabilă azi.|Ea a întrebat: „Unde ești?”|Un „da” ferm, spune ea.",
    )


def _romanian_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "Programul este de luni pana vineri.|Toate trenurile pleaca de la gara de"
        " nord.|Magazinul are multe produse noi.|Cartea este pentru copii si parinti.",
    )


def _english(rng: random.Random) -> str:
    item = _pick(rng, "Tickets|Adult entry|The set menu|Parking|Delivery|A single room")
    price = f"£{rng.randint(1, 99)}" + rng.choice(("", f".{rng.randint(10, 99)}", ".50"))
    return rng.choice(
        (
            f"{item} costs {price} per person.",
            f"{item}: {price} (was {price}).",
            f"{item} from {price}, children free.",
        )
    )


def _english_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "The shop is open from Monday to Friday.|Book early to avoid disappointment.|All"
        " prices include VAT and service.|Please call us for group bookings.",
    )


def _greek(rng: random.Random) -> str:
    return _pick(
        rng,
        "Δεν ξέρω τι θα γίνει.|Θα ’ρθω αύριο.|Πού ’ναι το σπίτι;|Τι ’ναι αυτό;|Σ’ αγαπώ"
        " πολύ.|Μου ’πε να περιμένω.|Τα ’χω όλα.|Πού ’σαι;|Τι ’γινε χθες;|Το ’μαθα"
        " σήμερα.|Μου ’δωσε ένα βιβλίο.|Σαν να ’ταν χθες.|Τα ’φερε όλα.",
    )


def _irish(rng: random.Random) -> str:
    return _pick(
        rng,
        "Fáilte go dtí an suíomh.|Tá sé go maith.|Dia duit, conas atá tú?|Níl aon rud nua"
        " inniu.|Is é seo an chéad lá.|Baile Átha Cliath|Rinne mé é inné.|Tá brón orm.|Cúrsaí"
        " reatha agus spórt.|Éire abú!|Ní raibh sé ann.|Go raibh míle maith agat.|Slán go"
        " fóill.|Tá an aimsir fuar.|Oíche mhaith.|Labhair mé leis an múinteoir.|Cá bhfuil"
        " tú?|Ná déan é sin.|Tá áthas orm.|Dúirt sé go dtiocfadh sé.",
    )


def _irish_filler(rng: random.Random) -> str:
    return _pick(
        rng,
        "Oscailte Luan go hAoine.|Gach praghas le CBL.|Fan linn ar an suiomh.|Ceolchoirm"
        " anocht ag a hocht.|Welcome to our site.",
    )


def _polish_short(rng: random.Random) -> str:
    """Polish whose only non-ASCII letters are `ż` opening `że` in a question (windows-1252's
    `¿`) or `ń` ending a word (windows-1252's `ñ`)."""
    lead = _pick(rng, "Wiesz|Myslisz|Mowisz|Czy to prawda|Ale|No to|Sadzisz|Wiedziales")
    rest = _pick(rng, "on przyjdzie|jutro jest koniec|to dobry pomysl|to tak|ona wie|jest zimno")
    return _pick(
        rng,
        f"{lead}, że {rest}?|Dzień dobry.|Koń stoi w stajni.|Tak, {lead.lower()}, że {rest}?"
        f"|Ten dzień był dobry.|Pan Kowalczyk ma koń.",
    )


def _greek_filler(rng: random.Random) -> str:
    return _pick(rng, "Welcome to our site.|Home - News - Contact|Copyright 2009")


def _simple(sentences: str, filler: str) -> tuple[Sentence, Sentence]:
    return (lambda rng: _pick(rng, sentences)), (lambda rng: _pick(rng, filler))


# class -> (sentence with non-ASCII, ASCII filler sentence, encodings, TLD)
CLASSES: dict[str, tuple[Sentence, Sentence, tuple[str, ...], str]] = {
    "spanish ¿ ¡ ñ": (_spanish, _spanish_filler, ("windows-1252", "ISO-8859-15"), "es"),
    "portuguese": (_portuguese, _portuguese_filler, ("windows-1252", "ISO-8859-15"), "pt"),
    "catalan": (_catalan, _catalan_filler, ("windows-1252", "ISO-8859-15"), "es"),
    "romanian": (_romanian, _romanian_filler, ("windows-1250", "ISO-8859-2"), "ro"),
    # (The same bytes as ISO-8859-2 with cedillas: told apart by its signs only. Without them
    # the pages are windows-1250's bytes, the encoding served: they stay 0, by design.)
    "romanian 8859-16": (_romanian, _romanian_filler, ("ISO-8859-16",), "ro"),
    "romanian „” €": (_romanian_signs, _romanian_filler, ("ISO-8859-16", "windows-1250"), "ro"),
    "irish": (_irish, _irish_filler, ("windows-1252", "ISO-8859-15"), "ie"),
    "spanish (.mx)": (_spanish, _spanish_filler, ("windows-1252", "ISO-8859-15"), "mx"),
    "polish że ń": (
        _polish_short,
        lambda rng: _pick(rng, "Sklep jest otwarty od poniedzialku do piatku.|Ceny z VAT."),
        ("windows-1250", "ISO-8859-2"),
        "pl",
    ),
    "british £": (_english, _english_filler, ("windows-1252", "ISO-8859-15"), "uk"),
    "greek ’": (_greek, _greek_filler, ("windows-1253", "ISO-8859-7"), "gr"),
    "french": (
        *_simple(
            "C'est très bien.|Il était là.|Le café est ouvert.|Où est la gare?|Ça va.",
            "Le magasin est ouvert du lundi au vendredi.|Tous les prix sont TTC.",
        ),
        ("windows-1252",),
        "fr",
    ),
    "german": (
        *_simple(
            "Das ist schön.|Er wohnt in München.|Wir müssen gehen.|Die Straße ist lang.",
            "Das Geschaft ist von Montag bis Freitag offen.|Alle Preise inklusive Steuer.",
        ),
        ("windows-1252",),
        "de",
    ),
    "italian": (
        *_simple(
            "Perché no?|La città è bella.|Così va il mondo.|Lui è già partito.",
            "Il negozio apre dal lunedi al venerdi.|Tutti i prezzi sono con IVA.",
        ),
        ("windows-1252",),
        "it",
    ),
    "polish": (
        *_simple(
            "Myślę, że on przyjdzie.|Wiesz, że jutro jest święto?|To jest już koniec."
            "|Może pójdziemy?|Żona jest w domu.|Dzień dobry.",
            "Sklep jest otwarty od poniedzialku do piatku.|Ceny zawieraja VAT.",
        ),
        ("windows-1250", "ISO-8859-2"),
        "pl",
    ),
    "czech": (
        *_simple(
            "To je ještě dobré.|Přijdu zítra.|Cena je nízká.|Děkuji moc.|Kde je nádraží?",
            "Obchod je otevren od pondeli do patku.|Ceny jsou vcetne DPH.",
        ),
        ("windows-1250", "ISO-8859-2"),
        "cz",
    ),
    "hungarian": (
        *_simple(
            "Nem tudom, hogy jön-e.|A ház nagyon szép.|Köszönöm szépen.|Ez egy jó nap.",
            "Az uzlet hetfotol pentekig van nyitva.|Az arak tartalmazzak az adot.",
        ),
        ("windows-1250", "ISO-8859-2"),
        "hu",
    ),
}


_CEDILLA = str.maketrans("șțȘȚ", "şţŞŢ")


def page(rng: random.Random, sentence: Sentence, filler: Sentence, encoding: str) -> bytes:
    """An undeclared page of 200-400 bytes: 1-3 sentences with non-ASCII, the rest filler."""
    limit = rng.randint(200, 400)
    head = b"<html><body><p>"
    parts = [sentence(rng) for _ in range(rng.randint(1, 3))]
    codec = get_encoding(encoding).python_codec
    if encoding != "ISO-8859-16":
        # Romanian in the older encodings: the cedilla letters they have.
        parts = [part.translate(_CEDILLA) for part in parts]
    body = " ".join(parts).encode(codec)
    while True:
        more = list(parts)
        more.insert(rng.randrange(len(parts) + 1), filler(rng))
        longer = " ".join(more).encode(codec)
        if len(head) + len(longer) + 18 > limit:
            return head + body + b"</p></body></html>"
        parts, body = more, longer


def evaluate(per_class: int, seed: int, failures: bool) -> dict[str, tuple[int, int, int]]:
    rng = random.Random(seed)
    results = {}
    for name, (sentence, filler, encodings, tld) in CLASSES.items():
        right_plain = right_tld = total = 0
        for index in range(per_class):
            encoding = encodings[index % len(encodings)]
            body = page(rng, sentence, filler, encoding)
            expected = decode(body, get_encoding(encoding))
            for url in (None, f"http://www.example.{tld}/"):
                text, _ = decode_html(body, url=url)
                ok = text == expected
                if url is None:
                    right_plain += ok
                else:
                    right_tld += ok
                if failures and not ok:
                    at = next(i for i, (a, b) in enumerate(zip(text, expected)) if a != b)
                    print(f"  {name} {encoding} url={url}: {text[max(0, at - 40) : at + 40]!r}")
            total += 1
        results[name] = (right_plain, right_tld, total)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--failures", action="store_true")
    args = parser.parse_args()
    results = evaluate(args.per_class, args.seed, args.failures)
    print(f"{'class':20s} {'no URL':>12s} {'ccTLD URL':>12s}")
    for name, (plain, tld, total) in results.items():
        print(f"{name:20s} {plain:6d}/{total:<5d} {tld:6d}/{total:<5d}")


if __name__ == "__main__":
    main()
