"""Sphinx configuration for the scrapy-charset documentation (MyST Markdown pages)."""

from __future__ import annotations

import sys
from pathlib import Path

# Document the source tree itself (the package imports without being installed).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import scrapy_charset  # noqa: E402

project = "scrapy-charset"
author = "scrapy-charset contributors"
copyright = "scrapy-charset contributors"  # noqa: A001
release = scrapy_charset.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}

html_theme = "alabaster"
html_title = f"scrapy-charset {release}"
html_static_path: list[str] = []
