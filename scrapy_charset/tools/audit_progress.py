"""The audit's progress display on stderr, drawn by tqdm (the ``progress`` extra): inputs done
of the total (files, WARCs, cache entries, URLs) with a bar, the elapsed time and the ETA, and
the pages, errors and pages/s so far. tqdm is imported only when the display is on.

Log lines written through :meth:`Progress.log_stream` (Scrapy's, during URL audits) clear the
bar first and redraw it after, so they never run into it.
"""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from .audit_compare import Record

INTERVAL = 0.1  # seconds between redraws
NEEDS_TQDM = "audit: the progress display needs tqdm: pip install scrapy-charset[progress]\n"


class Progress:
    """Counts pages and inputs; draws them with tqdm when ``enabled``, at most ten times a
    second. Without tqdm, says so once if the display was ``asked`` for (``--progress``),
    nothing if it was only on by default (stderr a terminal)."""

    def __init__(
        self, enabled: bool, total: int | None, stream: TextIO, asked: bool = True
    ) -> None:
        self.stream = stream
        self.total = total  # inputs: files, WARCs, cache entries and URLs
        self.pages = 0  # pages and errors
        self.errors = 0
        self.started = time.monotonic()
        self.bar: Any = None
        self._drawn = 0.0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                if asked:
                    stream.write(NEEDS_TQDM)
            else:
                # No monitor thread: with a thread running, --jobs could not fork its workers.
                bar = type("AuditBar", (tqdm,), {"monitor_interval": 0})
                self.bar = bar(
                    total=total, file=stream, unit="input", mininterval=INTERVAL,
                    dynamic_ncols=True, leave=True,
                )

    @property
    def enabled(self) -> bool:
        return self.bar is not None

    def update(self, record: Record) -> None:
        self.pages += 1
        self.errors += not record.ok
        if self.bar is not None:
            if record.kind == "url":
                self.bar.update(1)  # a URL is an input of its own
            self._postfix()

    def add_done(self, pages: int, errors: int, inputs: int) -> None:
        """Pages (errors among them) of inputs audited elsewhere (a --jobs worker)."""
        self.pages += pages
        self.errors += errors
        self.advance_inputs(inputs)

    def advance_inputs(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)
            self._postfix()

    def _postfix(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < INTERVAL:
            return
        self._drawn = now
        rate = self.pages / max(now - self.started, 1e-9)
        self.bar.set_postfix_str(f"{self.pages} pages, {self.errors} errors, {rate:.0f} pages/s")

    def log_stream(self) -> TextIO:
        """A stream for log handlers: each write clears the bar and redraws it after."""
        return cast(TextIO, _AroundProgress(self))

    def close(self) -> None:
        if self.bar is not None:
            self._postfix(force=True)
            self.bar.close()


class _AroundProgress(io.TextIOBase):
    def __init__(self, progress: Progress) -> None:
        self.progress = progress

    def write(self, text: str) -> int:
        bar = self.progress.bar
        if bar is None:
            self.progress.stream.write(text)
        else:
            with bar.external_write_mode(file=self.progress.stream):
                self.progress.stream.write(text)
        return len(text)

    def flush(self) -> None:
        self.progress.stream.flush()


def make_progress(
    enabled: bool, inputs: int, urls: int, stream: TextIO, asked: bool = True
) -> Progress:
    return Progress(enabled, total=(inputs + urls) or None, stream=stream, asked=asked)
