"""``--html FILE``: the audit as one self-contained HTML page.

Everything is inline (CSS, SVG charts); the page loads nothing at view time. It holds the
study's table, bar charts of the share of differing pages and characters per TLD and per
declared encoding, the decision sources, and side-by-side examples of each class of difference.
"""

from __future__ import annotations

from html import escape

from .audit_compare import DEFAULT_TITLES
from .audit_report import Counts, Summary, render_table
from .audit_severity import CLASSES

COLORS = {"requests": "#d9822b", "scrapy": "#2b6cb0", "utf8": "#7b5ea7", "any": "#555"}
CLASS_TEXT = {
    "mojibake": "whole-page mojibake: most non-ASCII characters differ",
    "replacement": "U+FFFD introduced: bytes the default's encoding could not decode",
    "c1_controls": "C1 controls where the browser shows characters (ISO-8859-1 for windows-1252)",
    "few_chars": "a few characters differ (a label and the superset browsers use for it)",
    "bom": "only a byte order mark kept as U+FEFF",
}
MAX_BARS = 25

CSS = """
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;
max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}
pre.table{font:13px/1.3 ui-monospace,monospace;background:#f6f8fa;padding:1em;overflow:auto}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .6em;
text-align:left;vertical-align:top}th{background:#f6f8fa}
.num{text-align:right;font-variant-numeric:tabular-nums}
.legend span{display:inline-block;margin-right:1.2em}.legend i{display:inline-block;width:.9em;
height:.9em;margin-right:.3em;vertical-align:-.1em}
code,.snip{font:13px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
.snip{background:#f6f8fa;padding:.1em .3em}.bad{background:#fde2e2}
.charts{display:flex;flex-wrap:wrap;gap:2em}.note{color:#666;font-size:.9em}
"""


def _pct(part: float, whole: float) -> str:
    return f"{part / whole:.1%}" if whole else "–"


def bar_chart(
    title: str, rows: list[tuple[str, Counts]], defaults: tuple[str, ...], measure: str
) -> str:
    """Horizontal grouped bars (one per default) of the share of pages or characters."""
    rows = sorted(rows, key=lambda r: -r[1].pages)[:MAX_BARS]
    label_w, bar_w, row_h = 130, 360, 14 * len(defaults) + 10
    height = 30 + row_h * max(len(rows), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 70}" '
        f'height="{height}" role="img" aria-label="{escape(title)}">',
        f'<text x="0" y="16" font-size="14" font-weight="bold">{escape(title)}</text>',
    ]
    for i, (key, counts) in enumerate(rows):
        y = 28 + i * row_h
        parts.append(
            f'<text x="0" y="{y + row_h / 2 + 4:.0f}" font-size="12">'
            f"{escape(key[:18])} ({counts.pages})</text>"
        )
        for j, name in enumerate(defaults):
            if measure == "pages":
                value = counts.garbled[name] / counts.pages if counts.pages else 0.0
            else:
                value = counts.chars[name] / counts.text_chars if counts.text_chars else 0.0
            width = max(bar_w * min(value, 1.0), 0.5)
            by = y + j * 14
            parts.append(
                f'<rect x="{label_w}" y="{by}" width="{width:.1f}" height="12" '
                f'fill="{COLORS.get(name, "#888")}"><title>{escape(DEFAULT_TITLES[name])}: '
                f"{value:.2%}</title></rect>"
                f'<text x="{label_w + width + 4:.1f}" y="{by + 10}" font-size="11">'
                f"{value:.1%}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def _legend(defaults: tuple[str, ...]) -> str:
    items = "".join(
        f'<span><i style="background:{COLORS.get(n, "#888")}"></i>{escape(DEFAULT_TITLES[n])}'
        "</span>"
        for n in defaults
    )
    return f'<p class="legend">{items}</p>'


def _sources(summary: Summary) -> str:
    table = summary.breakdowns.get("source", {})
    rows = "".join(
        f"<tr><td><code>{escape(key)}</code></td><td class=num>{c.pages}</td>"
        f"<td class=num>{_pct(c.pages, summary.total.pages)}</td>"
        + "".join(f"<td class=num>{_pct(c.garbled[n], c.pages)}</td>" for n in summary.defaults)
        + "</tr>"
        for key, c in sorted(table.items(), key=lambda kv: -kv[1].pages)
    )
    heads = "".join(f"<th>{escape(DEFAULT_TITLES[n])} garbles</th>" for n in summary.defaults)
    return (
        "<table><tr><th>decided by</th><th>pages</th><th>share</th>"
        f"{heads}</tr>{rows}</table>"
    )


def _classes(summary: Summary) -> str:
    total = summary.total
    heads = "".join(f"<th>{escape(DEFAULT_TITLES[n])}</th>" for n in summary.defaults)
    rows = "".join(
        f"<tr><td><code>{kind}</code><br><span class=note>{escape(CLASS_TEXT[kind])}</span></td>"
        + "".join(f"<td class=num>{total.classes[n][kind]}</td>" for n in summary.defaults)
        + "</tr>"
        for kind in CLASSES
    )
    chars = "".join(
        f"<td class=num>{total.chars[n]} ({_pct(total.chars[n], total.text_chars)})</td>"
        for n in summary.defaults
    )
    return (
        f"<table><tr><th>pages garbled, by kind of difference</th>{heads}</tr>{rows}"
        f"<tr><th>characters that differ</th>{chars}</tr></table>"
    )


def _snippet(text: str, browser: str) -> str:
    cells = []
    for i, char in enumerate(text):
        shown = escape(char if char.isprintable() or char in "\n\t" else repr(char)[1:-1])
        differs = i >= len(browser) or browser[i] != char
        cells.append(f'<span class="bad">{shown}</span>' if differs else shown)
    return "".join(cells)


def _examples(summary: Summary) -> str:
    parts = []
    for kind in CLASSES:
        examples = summary.examples.get(kind) or []
        if not examples:
            continue
        parts.append(f"<h3><code>{kind}</code>: {escape(CLASS_TEXT[kind])}</h3>")
        for example in examples:
            sample = example.get("sample") or {}
            browser = str(sample.get("browser", ""))
            rows = [
                f"<tr><th>browser ({escape(str(example.get('encoding')))}, "
                f"{escape(str(example.get('source')))})</th>"
                f'<td><span class="snip">{escape(browser)}</span></td></tr>'
            ]
            for name in summary.defaults:
                if name not in sample:
                    continue
                result = (example.get("results") or {}).get(name) or {}
                label = f"{DEFAULT_TITLES[name]} ({result.get('encoding')})"
                rows.append(
                    f"<tr><th>{escape(label)}</th><td><span class=snip>"
                    f"{_snippet(str(sample[name]), browser)}</span></td></tr>"
                )
            parts.append(
                f"<p><code>{escape(str(example.get('where')))}</code> at character "
                f"{sample.get('offset')}</p><table>{''.join(rows)}</table>"
            )
    return "".join(parts) or "<p>No page differs.</p>"


def render_html(summary: Summary) -> str:
    defaults = summary.defaults
    total = summary.total
    charts = []
    for key, title in (("tld", "TLD"), ("declared", "declared encoding")):
        rows = list(summary.breakdowns.get(key, {}).items())
        if rows:
            charts.append(bar_chart(f"Pages garbled per {title}", rows, defaults, "pages"))
            charts.append(bar_chart(f"Characters that differ per {title}", rows, defaults,
                                    "chars"))
    headline = (
        f"{total.pages} pages audited ({total.errors} errors, {total.skipped} skipped); "
        + "; ".join(
            f"{DEFAULT_TITLES[n]} garbles {g} ({_pct(g, total.pages)})"
            for n, g in ((n, total.garbled[n]) for n in defaults)
        )
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>scrapy-charset audit</title>"
        f"<style>{CSS}</style></head><body>"
        "<h1>scrapy-charset audit</h1>"
        f"<p>{escape(headline)}.</p>"
        f"<h2>Summary by {escape(summary.group_by)}</h2>"
        f'<pre class="table">{escape(render_table(summary))}</pre>'
        f"<h2>Where the defaults garble</h2>{_legend(defaults)}"
        f'<div class="charts">{"".join(charts)}</div>'
        f"<h2>How badly</h2>{_classes(summary)}"
        f"<h2>Decision sources</h2>{_sources(summary)}"
        "<h2>Examples, side by side</h2>"
        '<p class="note">The text of each around the first place one differs from the '
        "browser's; differing characters are marked.</p>"
        f"{_examples(summary)}"
        "</body></html>\n"
    )
