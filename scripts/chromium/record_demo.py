"""Check the demo site's pages against Chromium: ``document.characterSet`` and the text shown.

Loads every page of ``python -m scrapy_charset demo --serve`` (or of a site served in-process
when no ``--base-url`` is given) in a fresh tab and compares what Chromium shows with what
``scrapy_charset/tools/demo_site.py`` records for the page (``encoding`` and ``expected``).
Prints one line per page and exits 1 when Chromium disagrees on any of them.

    python -m scrapy_charset demo --serve --port 8765 &
    python scripts/chromium/record_demo.py --base-url http://127.0.0.1:8765
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from browser import chromium, describe  # noqa: E402

from scrapy_charset.tools.demo_site import PAGES, serve  # noqa: E402

SHOWN = "() => [document.characterSet, document.title, document.getElementById('s').textContent]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="a running demo site (default: serve one here)")
    parser.add_argument("--only", nargs="*", default=(), help="page slugs (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per page")
    args = parser.parse_args()
    pages = [page for page in PAGES if not args.only or page.slug in args.only]
    disagreements = 0
    with nullcontext() if args.base_url else serve() as site:
        base_url = args.base_url.rstrip("/") if args.base_url else site.base_url
        with chromium(["--headless"]) as browser:
            first = browser.new_page()
            print(json.dumps(describe(browser, first), ensure_ascii=False))
            first.close()
            for page in pages:
                tab = browser.new_page()  # a fresh tab: no state from the page before
                try:
                    tab.goto(base_url + page.path)
                    charset, title, text = tab.evaluate(SHOWN)
                finally:
                    tab.close()
                agrees = (charset, title, text) == (page.encoding, page.expected, page.expected)
                disagreements += not agrees
                if args.json:
                    row = {
                        "slug": page.slug,
                        "characterSet": charset,
                        "title": title,
                        "p": text,
                        "agrees": agrees,
                    }
                    print(json.dumps(row, ensure_ascii=False))
                else:
                    mark = "agrees" if agrees else "DIFFERS"
                    print(f"{mark:8} {page.slug}: {charset} | {title!r} | {text!r}")
                    if not agrees:
                        print(f"{'':8} recorded: {page.encoding} | {page.expected!r}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
