"""Decoding speed and memory of ``scrapy_charset.encoding.decode``, side by side in one run.

For every encoding (but replacement, which reads no bytes): about 1 MB of typical text (a
sample in the encoding's languages inside HTML markup, encoded with Python's codec), decoded by

- ``decode`` (this project; spec-exact),
- Python's nearest built-in codec with errors="replace" (the baseline; not spec-exact). For
  x-user-defined, which Python lacks, that is a table codec built the way Python builds its
  own single-byte codecs (``codecs.charmap_decode`` with the 256-entry table, as cp1252 is);
  its ratio against latin-1, a plain byte copy into one-byte characters that cannot give
  x-user-defined's U+F780-U+F7FF, is printed too,
- turbohtml's ``whatwg-*`` codec, if turbohtml is installed (``import turbohtml.detect``
  registers them),

called in turns, call by call, each first equally often; a ratio is the median over rounds of
baseline time / other time, each the median of its calls in the round (above 1 is faster than
Python's codec). Then the same on 1 MB of
random bytes (error-dense input for the multi-byte encodings), the worst ratios against
Python's codec and against turbohtml (turbohtml's time / ours), and the peak memory
(tracemalloc) of decoding 10 MB of typical text relative to the size of the output. UTF-8 is
also measured on each kind of text (``utf8_kinds``: ASCII, English with a few curly quotes and
euro signs, Latin-1 letters, Cyrillic, Japanese, Japanese with ASCII between its words,
Russian with guillemets, dashes and ellipses, Korean, Chinese, emoji, bench_response.py's 30 KB
and 1 MB pages, valid text with one invalid byte at its end), as its decoder takes a
different path for each.

    python benchmarks/bench_decode.py [--rounds N] [--only NAME ...] [--fresh-memory]

Freed memory is kept for the next call (glibc's trim and mmap thresholds raised, as
``steady_allocator`` says): the decoders are measured, not the page faults of fresh memory.
``--fresh-memory`` leaves the allocator as it is.
"""

from __future__ import annotations

import argparse
import codecs
import ctypes
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, decode

SAMPLES = {
    "latin": "Le cœur a ses raisons que la raison ne connaît point. Über die Brücke gehen "
    "wir später. ¿Dónde está la estación? Smørrebrød, façade, naïve, Ærø, 3 € le café.",
    "central": "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy. Árvíztűrő "
    "tükörfúrógép. Şi ţara întreagă s-a bucurat.",
    "south": "Ċerv ħelu ġenerali. Ĉiuĵaŭde ŝi manĝas ĝustan ĥoraĉon.",
    "baltic": "Įlinkęs šešėlis ūkanotą rytą. Ķēniņš gāja pļavā. Õunapuu äärel. Ŋ ŧ ß.",
    "celtic": "Mae ŵyn a ŷd yn y dyffryn. Ẁ ẃ ẅ ỳ ḃ ċ ḋ ḟ ġ ṁ ṗ ṡ ṫ.",
    "cyrillic": "Съешь же ещё этих мягких французских булок, да выпей чаю. Ґанок, їжак, "
    "єнот і Ў.",
    "greek": "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η γλώσσα μου έδωσαν ελληνική.",
    "hebrew": "דג סקרן שט בים מאוכזב ולפתע מצא חברה. שָׁלוֹם",
    "arabic": "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق.",
    "turkish": "Pijamalı hasta yağız şoföre çabucak güvendi. İstanbul'da ğüşıöç.",
    "vietnamese": "Tiếng Việt có dấu: Trăm năm trong cõi người ta, chữ tài chữ mệnh khéo là "
    "ghét nhau.",
    "thai": "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า กว่าบรรดาฝูงสัตว์เดรัจฉาน",
    "japanese": "いろはにほへと ちりぬるを。吾輩は猫である。名前はまだ無い。どこで生れたか"
    "とんと見当がつかぬ。カタカナ、ｶﾀｶﾅ、①②、〜、ー。",
    "simplified": "中华人民共和国成立于一九四九年。我们的网站提供最新的新闻、体育和娱乐"
    "信息，欢迎访问！",
    "traditional": "中華民國的首都是臺北。我們的網站提供最新的新聞、體育和娛樂資訊，"
    "歡迎瀏覽！",
    "korean": "다람쥐 헌 쳇바퀴에 타고파. 대한민국의 수도는 서울입니다. 뉴스와 스포츠 정보.",
}
LANGUAGES = {
    "UTF-8": list(SAMPLES),
    "UTF-16LE": list(SAMPLES),
    "UTF-16BE": list(SAMPLES),
    "IBM866": ["cyrillic"],
    "ISO-8859-2": ["central"],
    "ISO-8859-3": ["south"],
    "ISO-8859-4": ["baltic"],
    "ISO-8859-5": ["cyrillic"],
    "ISO-8859-6": ["arabic"],
    "ISO-8859-7": ["greek"],
    "ISO-8859-8": ["hebrew"],
    "ISO-8859-8-I": ["hebrew"],
    "ISO-8859-10": ["baltic"],
    "ISO-8859-13": ["baltic"],
    "ISO-8859-14": ["celtic"],
    "ISO-8859-15": ["latin"],
    "ISO-8859-16": ["central"],
    "KOI8-R": ["cyrillic"],
    "KOI8-U": ["cyrillic"],
    "macintosh": ["latin"],
    "windows-874": ["thai"],
    "windows-1250": ["central"],
    "windows-1251": ["cyrillic"],
    "windows-1252": ["latin"],
    "windows-1253": ["greek"],
    "windows-1254": ["turkish"],
    "windows-1255": ["hebrew"],
    "windows-1256": ["arabic"],
    "windows-1257": ["baltic"],
    "windows-1258": ["vietnamese"],
    "x-mac-cyrillic": ["cyrillic"],
    "GBK": ["simplified"],
    "gb18030": ["simplified"],
    "Big5": ["traditional"],
    "EUC-JP": ["japanese"],
    "ISO-2022-JP": ["japanese"],
    "Shift_JIS": ["japanese"],
    "EUC-KR": ["korean"],
    "x-user-defined": ["latin"],
}
MB = 1 << 20


def typical_text(encoding: Encoding, size: int) -> bytes:
    """About ``size`` bytes of HTML in ``encoding``'s languages, encoded by Python's codec."""
    paragraphs = [
        f'<p class="l-{name}"><a href="/articles/{i}">{SAMPLES[name]}</a></p>\n'
        for i, name in enumerate(LANGUAGES[encoding.name])
    ]
    block = ("<div>\n" + "".join(paragraphs) + "</div>\n").encode(
        encoding.python_codec, "xmlcharrefreplace"
    )
    return block * (size // len(block) + 1)


def utf8_kinds() -> dict[str, bytes]:
    """Kinds of UTF-8 text, each about 1 MB (bench_response.py's pages as they are)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_response import SIZE, page

    english = "The quick brown fox jumps over the lazy dog while the committee reviews it. "
    texts = {
        "ASCII (English)": english * 3,
        "English, “quotes” €": english + "It said “fine” for 3 € a day. " + english * 2,
        "Latin-1 letters": SAMPLES["latin"].replace("œ", "oe").replace("€", "E"),
        "Cyrillic": SAMPLES["cyrillic"],
        "Japanese": SAMPLES["japanese"],
        "Japanese with ASCII": "価格は1,280円（税込）。Tokyo駅から5分、Wi-Fi完備、JR線OK。",
        "Russian, «» — …": "Москва — столица России. «Город», сказал он… и всё — 5 км.",
        "Korean": SAMPLES["korean"],
        "Chinese": SAMPLES["simplified"],
        "emoji": "Party 🎉 time 😀 rocket 🚀 thumbs 👍 " * 3,
        "emoji only": "🎉😀🚀👍" * 20,
    }
    kinds = {}
    for name, text in texts.items():
        block = f'<div><p class="x"><a href="/articles/1">{text}</a></p></div>\n'.encode()
        kinds[name] = block * (MB // len(block) + 1)
    kinds["page, 30 KB (French)"] = page("fr", SIZE).encode()
    kinds["page, 1 MB (French)"] = page("fr", MB).encode()
    kinds["Latin-1, a bad last byte"] = kinds["Latin-1 letters"] + b"\xff"
    # Legacy pages served as UTF-8 (a common misdeclaration): an invalid sequence every few
    # letters.
    kinds["French windows-1252 as UTF-8"] = page("fr", MB).encode("cp1252", "replace")
    russian = SAMPLES["cyrillic"].encode("cp1251", "replace")
    kinds["Russian windows-1251 as UTF-8"] = russian * (MB // len(russian) + 1)
    return kinds


def baseline_decoder(encoding: Encoding, data: bytes) -> tuple[str, Callable[[], object]]:
    """Python's nearest built-in codec for ``encoding``: its name and a call decoding ``data``."""
    if encoding.name == "x-user-defined":
        table = "".join(map(chr, range(0x80))) + "".join(map(chr, range(0xF780, 0xF800)))
        return "charmap", partial(codecs.charmap_decode, data, "strict", table)
    return encoding.python_codec, partial(data.decode, encoding.python_codec, "replace")


def turbohtml_decoder(encoding: Encoding) -> Callable[[bytes], str] | None:
    try:
        import turbohtml.detect  # noqa: F401  (registers the whatwg-* codecs)
    except ImportError:
        return None
    name = f"whatwg-{encoding.name.lower()}"
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return lambda data: data.decode(name)


def round_seconds(functions: list[Callable[[], object]], rounds: int) -> list[list[float]]:
    """Per round, the median time of each function's calls, the functions taking turns call
    by call and each going first equally often (two calls per function and round), so that
    all meet the same load on a shared machine; one list of round medians per function."""
    times: list[list[float]] = [[] for _ in functions]
    clock = time.perf_counter
    count = len(functions)
    calls = 2 * count
    for function in functions:  # warm up
        function()
    for _ in range(rounds):
        samples: list[list[float]] = [[] for _ in functions]
        for call in range(calls):
            for step in range(count):
                i = (call + step) % count
                start = clock()
                functions[i]()
                samples[i].append(clock() - start)
        for i, seconds in enumerate(samples):
            times[i].append(statistics.median(seconds))
    return times


def median_seconds(functions: list[Callable[[], object]], rounds: int) -> list[float]:
    return [statistics.median(t) for t in round_seconds(functions, rounds)]


def median_ratio(baseline: list[float], other: list[float]) -> float:
    """Median over rounds of baseline time / other time, each pair measured back to back."""
    return statistics.median(b / o for b, o in zip(baseline, other, strict=True))


def steady_allocator() -> str:
    """Let glibc keep freed memory for the next call: no call's text then comes in fresh pages
    from the kernel. Without this, a 1 MB text is allocated with
    mmap or at the top of a heap that free() trims, and whichever decoder's output size makes
    it so pays for about 250 page faults on each call (the ratios of one kind flipped between
    0.83x and 1.88x from run to run). Returns the line saying what was done."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return "allocator: as it is (no glibc): 1 MB times include page faults"
    m_trim_threshold, m_mmap_threshold = -1, -3
    if mallopt(m_trim_threshold, 1 << 30) and mallopt(m_mmap_threshold, 32 << 20):
        return "allocator: glibc keeps freed memory (no trim below 1 GB, no mmap below 32 MB)"
    return "allocator: as it is (mallopt refused): 1 MB times include page faults"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument(
        "--fresh-memory",
        action="store_true",
        help="leave glibc's allocator as it is (1 MB times then include page faults)",
    )
    args = parser.parse_args(argv)
    allocator = "allocator: as it is (--fresh-memory)" if args.fresh_memory else steady_allocator()
    encodings = [e for e in ALL_ENCODINGS if e.name != "replacement"]
    if args.only:
        encodings = [e for e in encodings if e.name in args.only]

    print(f"Python {sys.version.split()[0]}; medians of {args.rounds} rounds; ~1 MB each")
    print(allocator)
    print(
        f"{'encoding':16} {'ours MB/s':>10} {'python MB/s':>12} {'ratio':>7} {'turbohtml':>10}"
        "  python codec"
    )
    worst: tuple[float, str] = (float("inf"), "")
    worst_turbo: tuple[float, str] = (float("inf"), "")
    notes = []
    for encoding in encodings:
        data = typical_text(encoding, MB)
        baseline_name, baseline = baseline_decoder(encoding, data)
        turbo = turbohtml_decoder(encoding)
        functions: list[Callable[[], object]] = [partial(decode, data, encoding), baseline]
        if turbo is not None:
            functions.append(partial(turbo, data))
        times = round_seconds(functions, args.rounds)
        seconds = [statistics.median(t) for t in times]
        ratio = median_ratio(times[1], times[0])
        turbo_ratio = (
            f"{median_ratio(times[1], times[2]):9.2f}x" if turbo is not None else "       n/a"
        )
        size = len(data) / MB
        print(
            f"{encoding.name:16} {size / seconds[0]:10.1f} {size / seconds[1]:12.1f} "
            f"{ratio:6.2f}x {turbo_ratio}  {baseline_name}"
        )
        worst = min(worst, (ratio, encoding.name))
        if turbo is not None:
            worst_turbo = min(worst_turbo, (median_ratio(times[2], times[0]), encoding.name))
        if encoding.name == "x-user-defined":
            ours, latin1 = round_seconds([functions[0], partial(data.decode, "latin-1")], 5)
            notes.append(f"x-user-defined against latin-1: {median_ratio(latin1, ours):.2f}x")
    for note in notes:
        print(note)
    if any(e.name == "UTF-8" for e in encodings):
        utf8 = next(e for e in encodings if e.name == "UTF-8")
        turbo = turbohtml_decoder(utf8)
        print("\nUTF-8 by kind of text (ratios as above: python time / other time):")
        print(f"{'kind':26} {'ours MB/s':>10} {'python MB/s':>12} {'ratio':>7} {'turbohtml':>10}")
        for name, data in utf8_kinds().items():
            functions = [partial(decode, data, utf8), partial(data.decode, "utf-8", "replace")]
            if turbo is not None:
                functions.append(partial(turbo, data))
            times = round_seconds(functions, args.rounds)
            seconds = [statistics.median(t) for t in times]
            ratio = median_ratio(times[1], times[0])
            turbo_ratio = (
                f"{median_ratio(times[1], times[2]):9.2f}x" if turbo is not None else "       n/a"
            )
            size = len(data) / MB
            print(
                f"{name:26} {size / seconds[0]:10.1f} {size / seconds[1]:12.1f} {ratio:6.2f}x "
                f"{turbo_ratio}"
            )
            worst = min(worst, (ratio, f"UTF-8, {name}"))
            if turbo is not None:
                worst_turbo = min(worst_turbo, (median_ratio(times[2], times[0]), f"UTF-8, {name}"))

    print("\nrandom bytes, 1 MB (ratios as above: python time / other time):")
    print(f"{'encoding':16} {'ours MB/s':>10} {'python MB/s':>12} {'ratio':>7} {'turbohtml':>10}")
    rng = random.Random(5)
    noise = bytes(rng.getrandbits(8) for _ in range(MB))
    slowest: tuple[float, str] = (float("inf"), "")
    for encoding in encodings:
        _, baseline = baseline_decoder(encoding, noise)
        turbo = turbohtml_decoder(encoding)
        functions = [partial(decode, noise, encoding), baseline]
        if turbo is not None:
            functions.append(partial(turbo, noise))
        times = round_seconds(functions, max(3, args.rounds // 3))
        seconds = [statistics.median(t) for t in times]
        ratio = median_ratio(times[1], times[0])
        turbo_ratio = (
            f"{median_ratio(times[1], times[2]):9.2f}x" if turbo is not None else "       n/a"
        )
        print(
            f"{encoding.name:16} {1 / seconds[0]:10.1f} {1 / seconds[1]:12.1f} {ratio:6.2f}x "
            f"{turbo_ratio}"
        )
        worst = min(worst, (ratio, f"{encoding.name}, random bytes"))
        if turbo is not None:
            ours_vs_turbo = median_ratio(times[2], times[0])
            worst_turbo = min(worst_turbo, (ours_vs_turbo, f"{encoding.name}, random bytes"))
        slowest = min(slowest, (1 / seconds[0], encoding.name))
    print(f"slowest on random bytes: {slowest[0]:.1f} MB/s ({slowest[1]})")
    print(f"worst ratio against Python's codec: {worst[0]:.2f}x ({worst[1]})")
    print(
        f"worst ratio against turbohtml (its time / ours): {worst_turbo[0]:.2f}x"
        f" ({worst_turbo[1]})"
    )

    print("\npeak memory decoding 10 MB of typical text (tracemalloc peak / output size):")
    highest: tuple[float, str] = (0.0, "")
    for encoding in encodings:
        data = typical_text(encoding, 10 * MB)
        tracemalloc.start()
        text = decode(data, encoding)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        ratio = peak / sys.getsizeof(text)
        print(f"{encoding.name:16} {ratio:6.2f}x")
        highest = max(highest, (ratio, encoding.name))
        del text
    print(f"highest memory ratio: {highest[0]:.2f}x ({highest[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
