"""``ADDONS = {"scrapy_charset.Addon": 0}``: the middleware and the item pipeline in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.utils.misc import load_object

from .item_decision import PRIORITY as ITEM_DECISION_PRIORITY
from .middleware import PRIORITY as MIDDLEWARE_PRIORITY

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

MIDDLEWARE_PATH = "scrapy_charset.integration.middleware.CharsetMiddleware"
PIPELINE_PATH = "scrapy_charset.integration.pipeline.CharsetPipeline"
ITEM_DECISION_PATH = "scrapy_charset.integration.item_decision.CharsetItemDecisionMiddleware"
# Before the usual storage priorities (300 and up, e.g. scrapy-redis's RedisPipeline at 300):
# storage must see the normalized text and the findings. Pipelines that build or fill items
# belong below 290; a project that needs another order lists the pipeline itself.
PIPELINE_PRIORITY = 290

# Other spellings of the same components (the lazy exports of the package).
_ALIASES = {
    "scrapy_charset.CharsetMiddleware": MIDDLEWARE_PATH,
    "scrapy_charset.CharsetPipeline": PIPELINE_PATH,
    "scrapy_charset.CharsetItemDecisionMiddleware": ITEM_DECISION_PATH,
}


class Addon:
    """Adds :class:`CharsetMiddleware` (585) to ``DOWNLOADER_MIDDLEWARES``,
    ``CharsetPipeline`` (290) to ``ITEM_PIPELINES`` and
    ``CharsetItemDecisionMiddleware`` (100, inactive unless ``CHARSET_ITEM_DECISION_FIELD`` is
    set) to ``SPIDER_MIDDLEWARES``, unless the project already lists them there (by path,
    alias or class, at any priority, including ``None`` to disable one)."""

    def update_settings(self, settings: BaseSettings) -> None:
        add_component(settings, "DOWNLOADER_MIDDLEWARES", MIDDLEWARE_PATH, MIDDLEWARE_PRIORITY)
        add_component(settings, "ITEM_PIPELINES", PIPELINE_PATH, PIPELINE_PRIORITY)
        add_component(settings, "SPIDER_MIDDLEWARES", ITEM_DECISION_PATH, ITEM_DECISION_PRIORITY)


def add_component(settings: BaseSettings, name: str, path: str, priority: int) -> bool:
    """Put ``path`` at ``priority`` in the component dict ``name`` unless it is listed already.

    Returns whether it was added.
    """
    listed = list(settings.getdict(name)) + list(settings.getdict(f"{name}_BASE"))
    if any(_same_component(key, path) for key in listed):
        return False
    components = settings[name]
    if hasattr(components, "set"):
        # A BaseSettings: keep the other keys' priorities as they are.
        components.set(path, priority, priority="addon")
    else:
        settings.set(name, {**dict(components or {}), path: priority}, priority="addon")
    return True


def _same_component(key: Any, path: str) -> bool:
    """Whether a component-dict ``key`` (path or class) names ``path`` or a subclass of it."""
    if isinstance(key, str):
        if _ALIASES.get(key, key) == path:
            return True
        try:
            key = load_object(key)  # may be a project's subclass of ours
        except Exception:
            return False  # Scrapy itself reports a broken path when it builds the components
    if not isinstance(key, type):
        return False
    for cls in key.__mro__:
        if f"{cls.__module__}.{cls.__qualname__}" == path:
            return True
    return False
