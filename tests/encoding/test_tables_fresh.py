"""The generated tables must be exactly what the generator writes from the vendored data."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding.tables import generate


@pytest.mark.parametrize("name", sorted(generate.outputs()))
def test_generated_module_is_fresh(name: str) -> None:
    expected = generate.outputs()[name]
    actual = (generate.HERE / name).read_text("utf-8")
    assert actual == expected, (
        f"{name} is stale: run python -m scrapy_charset.encoding.tables.generate"
    )
