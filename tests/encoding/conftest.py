from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from scrapy_charset.encoding import cjk


@pytest.fixture(params=["compiled", "python"])
def cjk_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test once on the compiled CJK decoders and once on the pure-Python paths."""
    if request.param == "python":
        monkeypatch.setattr(cjk, "compiled", None)
    elif cjk.compiled is None:
        if os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") == "1":
            pytest.fail("the compiled decoders were required but not built")
        pytest.skip("built without the compiled decoders")
    yield request.param
