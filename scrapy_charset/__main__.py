"""``python -m scrapy_charset demo|audit ...``"""

from __future__ import annotations

import sys

USAGE = """usage: python -m scrapy_charset COMMAND [ARGS]

commands:
  demo    crawl a bundled local site with stock Scrapy and with scrapy-charset, side by side
  audit   measure how much of a crawl the usual defaults garble (see: audit --help)
"""


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print(USAGE, end="")
        return 0
    command, rest = args[0], args[1:]
    if command == "demo":
        from .tools.demo import main as demo_main

        return demo_main(rest)
    if command == "audit":
        from .tools.audit import main as audit_main

        return audit_main(rest)
    print(f"unknown command: {command}\n\n{USAGE}", end="", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
