"""The audit's summary (counts per group and in total) and its outputs: a terminal table, JSON
lines and CSV, plus a progress line on stderr."""

from __future__ import annotations

import csv
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .audit_compare import DEFAULT_TITLES, DEFAULTS, Record

# Record fields a summary can be grouped by (scalar fields of Record.to_dict()).
GROUPABLE: tuple[str, ...] = (
    "tld",
    "host",
    "kind",
    "status",
    "content_type",
    "encoding",
    "source",
    "label",
    "confident",
    "late_meta",
    "conflict",
    "bom",
    "not_utf8",
    "error",
    "skipped",
    *(f"{name}_{part}" for name in DEFAULTS for part in ("encoding", "same")),
)
FORMATS = ("table", "jsonl", "csv")
ANY = "any"


@dataclass
class Counts:
    """One row of the study's table."""

    pages: int = 0  # pages audited (errors and skipped responses excluded)
    errors: int = 0
    skipped: int = 0
    not_utf8: int = 0
    late_meta: int = 0
    conflict: int = 0
    bom: int = 0
    garbled: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*DEFAULTS, ANY), 0))

    def add(self, record: Record, defaults: Sequence[str]) -> None:
        if not record.ok:
            self.errors += 1
            return
        if record.skipped is not None:
            self.skipped += 1
            return
        self.pages += 1
        self.not_utf8 += bool(record.not_utf8)
        self.late_meta += bool(record.late_meta)
        self.conflict += bool(record.conflict)
        self.bom += record.bom is not None
        garbled_any = False
        for name in defaults:
            if record.garbled(name):
                self.garbled[name] += 1
                garbled_any = True
        self.garbled[ANY] += garbled_any

    def share(self, default: str) -> float:
        return self.garbled[default] / self.pages if self.pages else 0.0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pages": self.pages,
            "errors": self.errors,
            "skipped": self.skipped,
            "not_utf8": self.not_utf8,
            "late_meta": self.late_meta,
            "conflict": self.conflict,
            "bom": self.bom,
        }
        for name, count in self.garbled.items():
            data[f"garbled_{name}"] = count
        return data


def group_key(record: Record, group_by: str) -> str:
    value: Any
    if group_by == "host":
        value = record.host or None
    elif group_by.endswith(("_encoding", "_same")) and group_by != "encoding":
        name, _, part = group_by.rpartition("_")
        result = record.defaults.get(name)
        value = getattr(result, part) if result is not None else None
    else:
        value = getattr(record, group_by)
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Summary:
    """Counts per group (in order of first appearance) and in total."""

    def __init__(self, group_by: str = "tld", defaults: Sequence[str] = DEFAULTS) -> None:
        self.group_by = group_by
        self.defaults = tuple(defaults)
        self.groups: dict[str, Counts] = {}
        self.total = Counts()

    def add(self, record: Record) -> None:
        key = group_key(record, self.group_by)
        self.groups.setdefault(key, Counts()).add(record, self.defaults)
        self.total.add(record, self.defaults)

    def rows(self) -> list[tuple[str, Counts]]:
        return [*sorted(self.groups.items()), ("total", self.total)]


# -- rendering -------------------------------------------------------------------------------


def _count_with_share(count: int, pages: int) -> str:
    return f"{count} ({count / pages:.0%})" if pages else str(count)


def render_table(summary: Summary) -> str:
    """The study's table: pages, not UTF-8, garbled by each default, and the other findings."""
    header = [
        summary.group_by,
        "pages",
        "errors",
        "skipped",
        "not UTF-8",
        *(DEFAULT_TITLES[name] for name in summary.defaults),
        "late meta",
        "conflicts",
        "BOM",
    ]
    body: list[list[str]] = []
    for key, counts in summary.rows():
        body.append(
            [
                key,
                str(counts.pages),
                str(counts.errors),
                str(counts.skipped),
                _count_with_share(counts.not_utf8, counts.pages),
                *(_count_with_share(counts.garbled[n], counts.pages) for n in summary.defaults),
                str(counts.late_meta),
                str(counts.conflict),
                str(counts.bom),
            ]
        )
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join((first, *rest)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    lines = [line(header), rule, *(line(row) for row in body[:-1]), rule, line(body[-1])]
    return "\n".join(lines) + "\n"


def render_examples(records: Sequence[Record], default: str, limit: int) -> str:
    """A few pages the default garbles, with the first place its text differs."""
    lines: list[str] = []
    for record in records[:limit]:
        result = record.defaults.get(default)
        diff = result.diff if result is not None else None
        where = record.url or record.origin
        lines.append(f"  {where}: browser {record.encoding} ({record.source})")
        if diff is not None and "offset" in diff:
            lines.append(f"    browser: {diff['browser']!r}")
            used = result.encoding if result is not None else ""
            lines.append(f"    {default:>7}: {diff['got']!r}  ({used})")
        elif diff is not None:
            lines.append(f"    {default}: {diff.get('error')}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_errors(records: Sequence[Record]) -> str:
    return "".join(f"  {r.url or r.origin}: {r.error}\n" for r in records)


def flat_row(data: dict[str, Any]) -> dict[str, Any]:
    """CSV cells: nested values as compact JSON, booleans and None as they print in JSON."""
    row: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, (dict, list)):
            row[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        elif isinstance(value, bool):
            row[key] = "true" if value else "false"
        elif value is None:
            row[key] = ""
        else:
            row[key] = value
    return row


def summary_dicts(summary: Summary) -> list[dict[str, Any]]:
    return [
        {"group_by": summary.group_by, "group": key, **counts.to_dict()}
        for key, counts in summary.rows()
    ]


class Writer:
    """Streams page records (jsonl/csv) as they come; writes the summary at the end."""

    def __init__(self, stream: TextIO, fmt: str, summary_only: bool = False) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.stream = stream
        self.format = fmt
        self.summary_only = summary_only
        self._csv: csv.DictWriter[str] | None = None

    def page(self, record: Record) -> None:
        if self.format == "table" or self.summary_only:
            return
        data = record.to_dict()
        if self.format == "jsonl":
            self.stream.write(json.dumps({"type": "page", **data}, ensure_ascii=False) + "\n")
            return
        if self._csv is None:
            self._csv = csv.DictWriter(self.stream, fieldnames=list(data), lineterminator="\n")
            self._csv.writeheader()
        self._csv.writerow(flat_row(data))

    def finish(self, summary: Summary, extra: str = "") -> None:
        if self.format == "table":
            self.stream.write(render_table(summary) + extra)
        elif self.format == "jsonl":
            for row in summary_dicts(summary):
                self.stream.write(json.dumps({"type": "summary", **row}, ensure_ascii=False) + "\n")
        elif self.summary_only:
            rows = summary_dicts(summary)
            writer = csv.DictWriter(self.stream, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(flat_row(row) for row in rows)
        self.stream.flush()


class Progress:
    """A one-line progress display on stderr, redrawn at most ten times a second."""

    def __init__(self, enabled: bool, total: int | None = None, stream: TextIO | None = None):
        self.enabled = enabled
        self.total = total
        self.stream = stream or sys.stderr
        self.done = 0
        self.errors = 0
        self.started = time.monotonic()
        self._last = 0.0

    def update(self, record: Record) -> None:
        self.done += 1
        self.errors += not record.ok
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= 0.1:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.done / max(now - self.started, 1e-9)
        if self.total:
            filled = int(30 * min(self.done / self.total, 1.0))
            bar = f"[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}"
        else:
            bar = f"{self.done} pages"
        self.stream.write(f"\r{bar}  {self.errors} errors  {rate:.0f} pages/s ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
