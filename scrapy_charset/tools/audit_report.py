"""The audit's summary (counts per group and in total) and its outputs: a terminal table, JSON
lines and CSV."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .audit_compare import DEFAULT_TITLES, DEFAULTS, Record
from .audit_inputs import clean_message
from .audit_severity import CLASSES, worst

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
    "ascii",
    "declared",
    "error",
    "skipped",
    *(f"{name}_{part}" for name in DEFAULTS for part in ("encoding", "same", "class")),
)
FORMATS = ("table", "jsonl", "csv")
ANY = "any"
ERRORS_LISTED = 20  # inputs that failed, listed under the table
CHUNK = 1 << 13  # characters of page records appended at a time
# The fields of every record (CSV columns), in order.
RECORD_FIELDS = list(Record("", "", None, "", "", None, None, 0).to_dict())


@dataclass
class Counts:
    """One row of the study's table (mergeable: :meth:`merge`, :meth:`to_dict`/``from_dict``)."""

    pages: int = 0  # pages audited (errors and skipped responses excluded)
    errors: int = 0
    skipped: int = 0
    not_utf8: int = 0
    ascii: int = 0
    late_meta: int = 0
    conflict: int = 0
    bom: int = 0
    text_chars: int = 0  # characters of the browser's text, over the audited pages
    garbled: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*DEFAULTS, ANY), 0))
    chars: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*DEFAULTS, ANY), 0))
    classes: dict[str, dict[str, int]] = field(
        default_factory=lambda: {name: dict.fromkeys(CLASSES, 0) for name in (*DEFAULTS, ANY)}
    )

    def add(self, record: Record, defaults: Sequence[str]) -> None:
        if not record.ok:
            self.errors += 1
            return
        if record.skipped is not None:
            self.skipped += 1
            return
        self.pages += 1
        self.not_utf8 += bool(record.not_utf8)
        self.ascii += bool(record.ascii)
        self.late_meta += bool(record.late_meta)
        self.conflict += bool(record.conflict)
        self.bom += record.bom is not None
        self.text_chars += record.text_chars or 0
        kinds: list[str] = []
        most = 0
        for name in defaults:
            if record.garbled(name):
                result = record.defaults[name]
                assert result is not None
                kind = result.kind or "few_chars"
                self.garbled[name] += 1
                self.chars[name] += result.chars
                self.classes[name][kind] += 1
                kinds.append(kind)
                most = max(most, result.chars)
        if kinds:
            self.garbled[ANY] += 1
            self.chars[ANY] += most
            self.classes[ANY][worst(kinds) or "few_chars"] += 1

    def merge(self, other: Counts) -> None:
        for name in ("pages", "errors", "skipped", "not_utf8", "ascii", "late_meta", "conflict",
                     "bom", "text_chars"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in (*DEFAULTS, ANY):
            self.garbled[name] += other.garbled.get(name, 0)
            self.chars[name] += other.chars.get(name, 0)
            for kind in CLASSES:
                self.classes[name][kind] += other.classes.get(name, {}).get(kind, 0)

    def share(self, default: str, kinds: Sequence[str] = CLASSES, measure: str = "pages") -> float:
        """Share of audited pages (or of their characters) that ``default`` garbles with a
        difference of one of ``kinds``."""
        if measure == "chars":
            return self.chars[default] / self.text_chars if self.text_chars else 0.0
        count = (
            self.garbled[default]
            if tuple(kinds) == CLASSES
            else sum(self.classes[default][k] for k in kinds)
        )
        return count / self.pages if self.pages else 0.0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pages": self.pages,
            "errors": self.errors,
            "skipped": self.skipped,
            "not_utf8": self.not_utf8,
            "ascii": self.ascii,
            "late_meta": self.late_meta,
            "conflict": self.conflict,
            "bom": self.bom,
            "text_chars": self.text_chars,
        }
        for name, count in self.garbled.items():
            data[f"garbled_{name}"] = count
        for name, count in self.chars.items():
            data[f"chars_{name}"] = count
        for name, kinds in self.classes.items():
            for kind, count in kinds.items():
                data[f"{name}_{kind}"] = count
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Counts:
        counts = cls()
        for name in ("pages", "errors", "skipped", "not_utf8", "ascii", "late_meta", "conflict",
                     "bom", "text_chars"):
            setattr(counts, name, int(data.get(name, 0)))
        for name in (*DEFAULTS, ANY):
            counts.garbled[name] = int(data.get(f"garbled_{name}", 0))
            counts.chars[name] = int(data.get(f"chars_{name}", 0))
            for kind in CLASSES:
                counts.classes[name][kind] = int(data.get(f"{name}_{kind}", 0))
        return counts


def group_key(record: Record, group_by: str) -> str:
    value: Any
    if group_by == "declared":
        value = record.declared
    elif group_by.endswith("_class"):
        result = record.defaults.get(group_by[: -len("_class")])
        value = result.kind if result is not None else None
    elif group_by == "host":
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


# Always counted besides --group-by, for the HTML report's charts.
BREAKDOWNS = ("tld", "declared", "source")
EXAMPLES_PER_CLASS = 3


class Summary:
    """Counts per group (in order of first appearance) and in total, the breakdowns the HTML
    report charts, and a few example pages per class of difference. Mergeable: shards of one
    audit (``--jobs``, Dask, separate runs) combine with :meth:`merge` into what one run gives."""

    def __init__(self, group_by: str = "tld", defaults: Sequence[str] = DEFAULTS) -> None:
        self.group_by = group_by
        self.defaults = tuple(defaults)
        self.groups: dict[str, Counts] = {}
        self.total = Counts()
        self.breakdowns: dict[str, dict[str, Counts]] = {name: {} for name in BREAKDOWNS}
        self.examples: dict[str, list[dict[str, Any]]] = {kind: [] for kind in CLASSES}

    def add(self, record: Record) -> None:
        key = group_key(record, self.group_by)
        self.groups.setdefault(key, Counts()).add(record, self.defaults)
        self.total.add(record, self.defaults)
        for name, table in self.breakdowns.items():
            table.setdefault(group_key(record, name), Counts()).add(record, self.defaults)
        if record.audited and record.sample is not None:
            # A page is an example of each class of difference some default makes of it.
            kinds = {r.kind for r in record.defaults.values() if r is not None and r.kind}
            for kind in sorted(kinds):
                if len(self.examples[kind]) < EXAMPLES_PER_CLASS:
                    self.examples[kind].append(example_of(record))

    def merge(self, other: Summary) -> None:
        if (other.group_by, other.defaults) != (self.group_by, self.defaults):
            raise ValueError(
                f"cannot merge a summary by {other.group_by} of {','.join(other.defaults)} into"
                f" one by {self.group_by} of {','.join(self.defaults)}"
            )
        for key, counts in other.groups.items():
            self.groups.setdefault(key, Counts()).merge(counts)
        self.total.merge(other.total)
        for name, table in other.breakdowns.items():
            mine = self.breakdowns.setdefault(name, {})
            for key, counts in table.items():
                mine.setdefault(key, Counts()).merge(counts)
        for kind, examples in other.examples.items():
            room = EXAMPLES_PER_CLASS - len(self.examples.setdefault(kind, []))
            self.examples[kind].extend(examples[: max(room, 0)])

    def rows(self) -> list[tuple[str, Counts]]:
        return [*sorted(self.groups.items()), ("total", self.total)]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "scrapy-charset-audit-summary/1",
            "group_by": self.group_by,
            "defaults": list(self.defaults),
            "groups": {key: counts.to_dict() for key, counts in self.groups.items()},
            "total": self.total.to_dict(),
            "breakdowns": {
                name: {key: counts.to_dict() for key, counts in table.items()}
                for name, table in self.breakdowns.items()
            },
            "examples": self.examples,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        if data.get("format") != "scrapy-charset-audit-summary/1":
            raise ValueError("not an audit summary (written with --summary-json)")
        summary = cls(str(data["group_by"]), tuple(data["defaults"]))
        summary.groups = {k: Counts.from_dict(v) for k, v in data["groups"].items()}
        summary.total = Counts.from_dict(data["total"])
        summary.breakdowns = {
            name: {k: Counts.from_dict(v) for k, v in table.items()}
            for name, table in data.get("breakdowns", {}).items()
        }
        for kind, examples in data.get("examples", {}).items():
            summary.examples[kind] = list(examples)[:EXAMPLES_PER_CLASS]
        return summary


def example_of(record: Record) -> dict[str, Any]:
    """A garbled page for the report: where it is, the decision, and every text at one place."""
    return {
        "where": record.url or record.origin,
        "encoding": record.encoding,
        "source": record.source,
        "sample": record.sample,
        "results": {
            name: {"encoding": r.encoding, "kind": r.kind, "chars": r.chars}
            for name, r in record.defaults.items()
            if r is not None
        },
    }


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
        "ASCII",
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
                _count_with_share(counts.ascii, counts.pages),
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
        where = clean_message(record.url or record.origin)
        lines.append(f"  {where}: browser {record.encoding} ({record.source})")
        if diff is not None and "offset" in diff:
            lines.append(f"    browser: {diff['browser']!r}")
            used = result.encoding if result is not None else ""
            lines.append(f"    {default:>7}: {diff['got']!r}  ({used})")
        elif diff is not None:
            lines.append(f"    {default}: {diff.get('error')}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_errors(records: Sequence[Record]) -> str:
    # A URL read from a corrupt WARC can be any bytes: escaped and cut as messages are.
    return "".join(f"  {clean_message(r.url or r.origin)}: {r.error}\n" for r in records)


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
    """Streams page records (jsonl/csv) as they come; writes the summary at the end.

    With ``header=False`` a CSV writer writes rows only: a ``--jobs`` worker writes its pages
    so, and the parent appends them with :meth:`append_pages`, header first."""

    def __init__(
        self, stream: TextIO, fmt: str, summary_only: bool = False, header: bool = True
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.stream = stream
        self.format = fmt
        self.summary_only = summary_only
        self.header = header
        self._csv: csv.DictWriter[str] | None = None

    @property
    def writes_pages(self) -> bool:
        """Whether each page's record is written (else only the summary)."""
        return self.format != "table" and not self.summary_only

    def page(self, record: Record) -> None:
        if not self.writes_pages:
            return
        data = record.to_dict()
        if self.format == "jsonl":
            self.stream.write(json.dumps({"type": "page", **data}, ensure_ascii=False) + "\n")
            return
        self._csv_writer(list(data)).writerow(flat_row(data))

    def _csv_writer(self, fields: list[str]) -> csv.DictWriter[str]:
        if self._csv is None:
            self._csv = csv.DictWriter(self.stream, fieldnames=fields, lineterminator="\n")
            if self.header:
                self._csv.writeheader()
        return self._csv

    def append_pages(self, pages: TextIO) -> None:
        """Append the page records another writer (``header=False``) wrote, as they are."""
        first = pages.read(CHUNK)
        if not first:
            return
        if self.format == "csv":
            self._csv_writer(RECORD_FIELDS)
        while first:
            self.stream.write(first)
            first = pages.read(CHUNK)
        self.stream.flush()

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


def render_classes(summary: Summary) -> str:
    """Pages each default garbles per class of difference, with the characters that differ."""
    total = summary.total
    if not any(total.garbled[name] for name in summary.defaults):
        return ""
    header = ["difference", *(DEFAULT_TITLES[name] for name in summary.defaults)]
    rows = []
    for kind in CLASSES:
        rows.append([kind, *(str(total.classes[n][kind]) for n in summary.defaults)])
    share = [
        f"{total.chars[n]} ({total.chars[n] / total.text_chars:.2%})" if total.text_chars
        else str(total.chars[n])
        for n in summary.defaults
    ]
    rows.append(["characters", *share])
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    lines = [
        "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:],
                                                                        strict=True))]).rstrip()
        for r in (header, *rows)
    ]
    return "\npages garbled per kind of difference:\n" + "\n".join(lines) + "\n"


class Findings:
    """What an audit keeps of its pages besides the output: the summary, the first pages the
    ``examples_for`` default garbles (the table's examples) and the first pages that failed,
    with their count. Mergeable: the findings of consecutive parts of the inputs, merged in
    input order, are those of one pass over all of them (``--jobs`` and Dask workers each make
    the findings of their part)."""

    def __init__(self, summary: Summary, examples_for: str, examples: int) -> None:
        self.summary = summary
        self.examples_for = examples_for
        self.examples = examples
        self.garbled: list[Record] = []
        self.errors: list[Record] = []  # the first ERRORS_LISTED + 1
        self.error_count = 0
        self.records = 0  # pages and errors

    def fresh(self) -> Findings:
        """Empty findings made the same way (for a part of the inputs)."""
        summary = Summary(self.summary.group_by, self.summary.defaults)
        return Findings(summary, self.examples_for, self.examples)

    def add(self, record: Record) -> None:
        self.records += 1
        self.summary.add(record)
        if not record.ok:
            if len(self.errors) <= ERRORS_LISTED:
                self.errors.append(record)
            self.error_count += 1
        elif len(self.garbled) < self.examples and self._shows_garbling(record):
            self.garbled.append(record)

    def _shows_garbling(self, record: Record) -> bool:
        if self.examples_for == ANY:
            return any(record.garbled(name) for name in self.summary.defaults)
        return record.garbled(self.examples_for)

    def merge(self, later: Findings) -> None:
        """Add the findings of the inputs that follow these."""
        self.summary.merge(later.summary)
        self.garbled.extend(later.garbled[: max(self.examples - len(self.garbled), 0)])
        self.errors.extend(later.errors[: max(ERRORS_LISTED + 1 - len(self.errors), 0)])
        self.error_count += later.error_count
        self.records += later.records

    def table_extra(self) -> str:
        """What the table is followed by: the kinds of difference, the first garbled pages
        and the inputs that failed."""
        summary = self.summary
        parts: list[str] = [render_classes(summary)]
        if self.garbled:
            default = self.examples_for if self.examples_for != ANY else summary.defaults[0]
            shown = [r for r in self.garbled if r.garbled(default)] or self.garbled
            parts.append(f"\nfirst pages {default} garbles:\n")
            parts.append(render_examples(shown, default, self.examples))
        if self.errors:
            parts.append(f"\n{self.error_count} input(s) could not be audited:\n")
            parts.append(render_errors(self.errors[:ERRORS_LISTED]))
            if self.error_count > ERRORS_LISTED:
                more = self.error_count - ERRORS_LISTED
                parts.append(f"  ... and {more} more (all are in --format jsonl or csv)\n")
        return "".join(parts)
