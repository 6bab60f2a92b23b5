"""Detection accuracy on real pages with every in-file declaration neutralised.

Usage: python benchmarks/eval_detection.py [CORPUS_DIR]   (default: ../shared/corpus/dev)

The corpus directory holds one folder per original encoding and a ``MANIFEST.tsv`` giving each
file's true Encoding Standard encoding. Each file's ``<meta>`` charset and XML ``encoding`` are
neutralised (``charset`` -> ``charzet``, ``encoding`` -> ``encodinx``, same length); byte order
marks are kept. A guess is right when decoding with it gives the same text as decoding with the
true encoding. Compared in the same run: this package's ``sniff`` (default detector and the
chardetng backend), charset-normalizer alone, chardetng alone, and Scrapy's ``HtmlResponse``.
"""

from __future__ import annotations

import argparse
import re
import sys
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


def ours(body: bytes) -> str | None:
    return decode_html(body)[0]


def ours_chardetng(body: bytes) -> str | None:
    return decode_html(body, detector=_CHARDETNG)[0]


def charset_normalizer_alone(body: bytes) -> str | None:
    import charset_normalizer

    best = charset_normalizer.from_bytes(body).best()
    return _python_text(body, best.encoding if best else None)


def chardetng_alone(body: bytes) -> str | None:
    import chardetng_py

    encoding = lookup(chardetng_py.detect(body, allow_utf8=True))
    return decode(body, encoding) if encoding else None


def scrapy_html_response(body: bytes) -> str | None:
    from scrapy.http import HtmlResponse

    return HtmlResponse("http://localhost/page.html", body=body).text


_CHARDETNG = ChardetngDetector()

CONTENDERS: dict[str, Callable[[bytes], str | None]] = {
    "scrapy-charset sniff (charset-normalizer)": ours,
    "scrapy-charset sniff (chardetng)": ours_chardetng,
    "charset-normalizer alone": charset_normalizer_alone,
    "chardetng alone": chardetng_alone,
    "Scrapy 2.19 HtmlResponse": scrapy_html_response,
}


def main(argv: list[str] | None = None) -> int:
    default = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "dev"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=default)
    parser.add_argument("--failures", action="store_true", help="list the files each got wrong")
    args = parser.parse_args(argv)
    manifest = args.corpus / "MANIFEST.tsv"
    if not manifest.is_file():
        print(f"no MANIFEST.tsv in {args.corpus}", file=sys.stderr)
        return 2
    rows = [line.split("\t") for line in manifest.read_text().splitlines()[1:] if line.strip()]
    right: Counter[str] = Counter()
    wrong: dict[str, list[str]] = {name: [] for name in CONTENDERS}
    for name, truth_label in rows:
        truth: Encoding | None = lookup(truth_label)
        assert truth is not None, truth_label
        body = neutralise((args.corpus / name).read_bytes())
        expected = _clean(decode(body, truth))
        for contender, guess in CONTENDERS.items():
            try:
                text = guess(body)
            except Exception as error:  # a contender that crashes gets the file wrong
                text = None
                wrong[contender].append(f"{name} (raised {type(error).__name__})")
                continue
            if text is not None and _clean(text) == expected:
                right[contender] += 1
            else:
                wrong[contender].append(name)
    total = len(rows)
    print(f"{total} files, declarations neutralised; right text (same as the true encoding's):")
    for contender in CONTENDERS:
        print(f"  {contender:45s} {right[contender]:4d}/{total}  {right[contender] / total:6.1%}")
    if args.failures:
        for contender, names in wrong.items():
            print(f"\n{contender}: {len(names)} wrong")
            for failed in names:
                print(f"  {failed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
