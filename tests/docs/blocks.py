"""The code blocks of the documentation (docs/*.md and README.md), as the tests see them.

A block is a fenced ```` ```python ```` block. A MyST comment line ``% test: KIND`` right before
the fence says how a block is exercised beyond running it (see ``test_docs_examples.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    language: str
    code: str
    marker: str  # the KIND of a "% test: KIND" line before the fence, or ""

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def doc_files() -> list[Path]:
    """Every documentation page, and the README."""
    return sorted(DOCS.glob("*.md")) + [REPO / "README.md"]


_FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\S*)\s*$")
_MARKER = re.compile(r"^%\s*test:\s*(.+?)\s*$")


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of one Markdown file, in order."""
    lines = path.read_text("utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, language = opening.groups()
        marker_line = _MARKER.match(lines[i - 1]) if i else None
        end = i + 1
        while end < len(lines) and not (
            lines[end].startswith(fence[0] * len(fence)) and not lines[end].strip(fence[0])
        ):
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{i + 1}: unclosed code fence")
        code = "\n".join(lines[i + 1 : end]) + "\n"
        found.append(
            Block(path, i + 1, language, code, marker_line.group(1) if marker_line else "")
        )
        i = end + 1
    return found


def python_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path) if b.language in ("python", "py")]


def prose(path: Path) -> str:
    """The text of a Markdown file without its fenced code blocks."""
    lines = path.read_text("utf-8").splitlines()
    fenced = {n for b in blocks(path) for n in range(b.line - 1, b.line + b.code.count("\n") + 1)}
    return "\n".join(line for n, line in enumerate(lines) if n not in fenced)


def inline_code(path: Path) -> list[str]:
    """The inline code spans (`...`) of a Markdown file's prose."""
    return re.findall(r"`([^`\n]+)`", prose(path))
