"""``scrapy charset-audit``: the audit as a Scrapy command, inside or outside a project."""

from __future__ import annotations

import argparse
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from . import audit


class AuditCommand(ScrapyCommand):
    requires_project = False
    # A reactor is started only when there are URLs to crawl (see audit_crawl).
    requires_crawler_process = False
    # Crawl logs stay quiet so the table (and progress line) stand out; a project's own
    # LOG_LEVEL or -L still wins.
    default_settings: ClassVar[dict[str, Any]] = dict(audit.COMMAND_SETTINGS)

    def syntax(self) -> str:
        return "[options] INPUT ..."

    def short_desc(self) -> str:
        return "Count the pages that requests, Scrapy and a UTF-8 decode garble"

    def long_desc(self) -> str:
        return audit.DESCRIPTION

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        audit.add_arguments(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unrecognized arguments: {' '.join(args)}")
        settings = self.settings
        assert settings is not None
        self.exitcode = audit.run(
            opts, settings=lambda: settings, crawler_process=self.crawler_process
        )
