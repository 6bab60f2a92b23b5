"""scrapy-charset: make Scrapy read every web page the way a browser does.

Layers, each importable on its own:

- :mod:`scrapy_charset.encoding`: the WHATWG Encoding Standard (labels, decoders).
- :mod:`scrapy_charset.sniffing`: the HTML Standard's encoding sniffing, in browser order.
- :mod:`scrapy_charset.integration`: the Scrapy middleware, item pipeline and add-on.
- :mod:`scrapy_charset.tools`: the audit command and the demo.

The first two never import Scrapy; the Scrapy parts are loaded only when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .encoding import Encoding, get_encoding, lookup

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .integration.addon import Addon
    from .integration.item_decision import CharsetItemDecisionMiddleware
    from .integration.middleware import CharsetMiddleware
    from .integration.pipeline import CharsetPipeline

_LAZY = {
    "Addon": "scrapy_charset.integration.addon",
    "CharsetItemDecisionMiddleware": "scrapy_charset.integration.item_decision",
    "CharsetMiddleware": "scrapy_charset.integration.middleware",
    "CharsetPipeline": "scrapy_charset.integration.pipeline",
}


def __getattr__(name: str) -> Any:
    # Import the Scrapy parts lazily so the core layers stay usable without importing Scrapy.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Addon",
    "CharsetItemDecisionMiddleware",
    "CharsetMiddleware",
    "CharsetPipeline",
    "Encoding",
    "get_encoding",
    "lookup",
]
