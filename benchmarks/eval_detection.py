"""Detection accuracy on real pages with every in-file declaration neutralised.

Usage: python benchmarks/eval_detection.py [--failures] [--by-encoding] [--short] [CORPUS_DIR ...]
(default: the chardet test pages in shared/corpus/dev, found in the nearest parent directory
that has it, so also from a git worktree, and tests/data/detection, pages written for this
project in 50 languages by scripts/detection/write_pages.py; scripts/detection/
generate_corpus.py writes a larger varied set to pass as CORPUS_DIR)

A corpus directory has a ``MANIFEST.tsv`` giving each file's true Encoding Standard encoding
and, optionally, the ccTLD it would be served from (else guessed from the dev corpus's folder
names); the "TLD" contenders get ``http://www.example.<tld>/`` as the URL. Each file's
``<meta>`` charset and XML ``encoding`` are neutralised (``charset`` -> ``charzet``,
``encoding`` -> ``encodinx``, same length); byte order marks are kept. A guess is right when
decoding with it gives the same text as decoding with the true encoding. Compared in the same
run: this package's ``decode_html`` (default detector, without and with the TLD; chardetng
backend), charset-normalizer, chardetng, cchardet (uchardet) and chardet 7 alone, and Scrapy's
``HtmlResponse``; with the median cost per page (detection and decoding).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from scrapy_charset.encoding import Encoding, decode, lookup
from scrapy_charset.sniffing import ChardetngDetector, decode_html
from scrapy_charset.sniffing.detect import whatwg_encoding_for

_CHARSET = re.compile(rb"(?i)(charse)t")
_XML_ENCODING = re.compile(rb"(?i)(<\?xml[^>]*encodin)g")


def neutralise(body: bytes) -> bytes:
    body = _CHARSET.sub(rb"\1z", body)
    return _XML_ENCODING.sub(rb"\1x", body)


def _clean(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _python_text(body: bytes, codec: str | None) -> str | None:
    """Text for a detector answer: via the Encoding Standard when it names one of its
    encodings, else via the Python codec itself (which a browser could not use)."""
    if not codec:
        return None
    encoding = whatwg_encoding_for(codec)
    if encoding is not None:
        return decode(body, encoding)
    try:
        return body.decode(codec, errors="replace")
    except LookupError:
        return None


def ours(body: bytes, url: str | None) -> str | None:
    return decode_html(body)[0]


def ours_tld(body: bytes, url: str | None) -> str | None:
    return decode_html(body, url=url)[0]


def ours_chardetng(body: bytes, url: str | None) -> str | None:
    return decode_html(body, url=url, detector=_CHARDETNG)[0]


def charset_normalizer_alone(body: bytes, url: str | None) -> str | None:
    import charset_normalizer

    best = charset_normalizer.from_bytes(body).best()
    return _python_text(body, best.encoding if best else None)


def chardetng_alone(body: bytes, url: str | None) -> str | None:
    import chardetng_py

    encoding = lookup(chardetng_py.detect(body, allow_utf8=True))
    return decode(body, encoding) if encoding else None


def cchardet_alone(body: bytes, url: str | None) -> str | None:
    import cchardet

    return _python_text(body, cchardet.detect(body)["encoding"])


def chardet_alone(body: bytes, url: str | None) -> str | None:
    import chardet

    return _python_text(body, chardet.detect(body)["encoding"])


def scrapy_html_response(body: bytes, url: str | None) -> str | None:
    from scrapy.http import HtmlResponse

    return HtmlResponse(url or "http://localhost/page.html", body=body).text


_CHARDETNG = ChardetngDetector()

CONTENDERS: dict[str, Callable[[bytes, str | None], str | None]] = {
    "scrapy-charset sniff": ours,
    "scrapy-charset sniff, TLD from the URL": ours_tld,
    "scrapy-charset sniff (chardetng), TLD": ours_chardetng,
    "charset-normalizer alone": charset_normalizer_alone,
    "chardetng alone": chardetng_alone,
    "cchardet (uchardet) alone": cchardet_alone,
    "chardet 7 alone": chardet_alone,
    "Scrapy HtmlResponse, TLD": scrapy_html_response,
}
# The language of the dev corpus's folders -> the ccTLD such pages are usually served from.
_FOLDER_TLDS = {
    "czech": "cz", "slovak": "sk", "hungarian": "hu", "polish": "pl", "croatian": "hr",
    "slovene": "si", "turkish": "tr", "bulgarian": "bg", "russian": "ru", "ukrainian": "ua",
    "greek": "gr", "hebrew": "il", "arabic": "eg", "thai": "th", "Big5": "tw", "GB2312": "cn",
    "EUC-KR": "kr", "CP949": "kr", "EUC-JP": "jp", "SHIFT_JIS": "jp", "TIS-620": "th",
    "KOI8-R": "ru", "IBM866": "ru", "MacCyrillic": "ru", "windows-1251": "ru",
}  # fmt: skip


def _url(name: str, tld: str | None) -> str | None:
    if tld is None:
        folder = name.split("/")[0]
        tld = next((t for key, t in _FOLDER_TLDS.items() if key in folder), None)
    return f"http://www.example.{tld}/" if tld else None


def _available(contender: Callable[[bytes, str | None], str | None]) -> bool:
    try:
        contender(b"caf\xe9", None)
    except ImportError:
        return False
    return True


def _is_short(name: str) -> bool:
    """A short page (200-400 bytes, or a line with a few non-ASCII bytes) by its file name."""
    return "-short" in name or name.endswith("-few.html")


def evaluate(
    corpus: Path,
    show_failures: bool,
    by_encoding: bool,
    only: list[str] | None = None,
    short: bool = False,
) -> None:
    rows = [line.split("\t") for line in (corpus / "MANIFEST.tsv").read_text().splitlines()[1:]]
    rows = [row for row in rows if row and row[0] and (not short or _is_short(row[0]))]
    if not rows:
        print(f"{corpus}: no {'short ' if short else ''}pages")
        return
    contenders = {
        name: c for name, c in CONTENDERS.items() if (not only or name in only) and _available(c)
    }
    right: Counter[str] = Counter()
    wrong: dict[str, list[str]] = {name: [] for name in contenders}
    seconds: dict[str, list[float]] = {name: [] for name in contenders}
    groups: dict[str, Counter[str]] = {}
    for row in rows:
        name, truth_label = row[0], row[1]
        truth: Encoding | None = lookup(truth_label)
        assert truth is not None, truth_label
        url = _url(name, row[2] if len(row) > 2 else None)
        body = neutralise((corpus / name).read_bytes())
        expected = _clean(decode(body, truth))
        group = groups.setdefault(_group(name, truth.name), Counter())
        group["total"] += 1
        for contender, guess in contenders.items():
            start = time.perf_counter()
            try:
                text = guess(body, url)
            except Exception as error:  # a contender that crashes gets the file wrong
                wrong[contender].append(f"{name} (raised {type(error).__name__})")
                continue
            finally:
                seconds[contender].append(time.perf_counter() - start)
            if text is not None and _clean(text) == expected:
                right[contender] += 1
                group[contender] += 1
            else:
                wrong[contender].append(name)
    total = len(rows)
    print(f"{corpus}: {total} files, declarations neutralised; right text (same as the true")
    print("encoding's), and the median cost per page:")
    for contender in contenders:
        cost = statistics.median(seconds[contender]) * 1e6
        print(
            f"  {contender:42s} {right[contender]:4d}/{total}  {right[contender] / total:6.1%}"
            f"  {cost:8.0f} us"
        )
    if by_encoding:
        ours_names = list(contenders)[:2]
        print(f"\n  by language and encoding ({' | '.join(ours_names)}):")
        for key in sorted(groups):
            counts = groups[key]
            cells = " | ".join(f"{counts[n]}/{counts['total']}" for n in ours_names)
            print(f"    {key:42s} {cells}")
    if show_failures:
        for contender, names in wrong.items():
            print(f"\n{contender}: {len(names)} wrong")
            for failed in names:
                print(f"  {failed}")


def _group(name: str, truth: str) -> str:
    """The language (the folder, or the file name's first part) and the true encoding."""
    if "/" in name:
        return f"{name.split('/')[0]} {truth}"
    return f"{name.split('-' + truth)[0]} {truth}"


def _shared_corpus(root: Path) -> Path:
    """``shared/corpus/dev`` in the nearest parent of ``root`` that has it (the project's
    checkout may be a worktree nested deeper than the main one)."""
    for parent in root.parents:
        candidate = parent / "shared" / "corpus" / "dev"
        if candidate.is_dir():
            return candidate
    return root.parent / "shared" / "corpus" / "dev"


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "corpora",
        nargs="*",
        type=Path,
        default=[_shared_corpus(root), root / "tests" / "data" / "detection"],
    )
    parser.add_argument("--failures", action="store_true", help="list the files each got wrong")
    parser.add_argument("--by-encoding", action="store_true", help="ours per language/encoding")
    parser.add_argument(
        "--only", action="append", choices=sorted(CONTENDERS), help="these contenders only"
    )
    parser.add_argument(
        "--short", action="store_true", help="short pages only (file names with -short, -few)"
    )
    args = parser.parse_args(argv)
    for corpus in args.corpora:
        if not (corpus / "MANIFEST.tsv").is_file():
            print(f"no MANIFEST.tsv in {corpus}", file=sys.stderr)
            continue
        evaluate(corpus, args.failures, args.by_encoding, args.only, args.short)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
