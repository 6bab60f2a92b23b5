"""The audit's reference text: each page decoded by the real :class:`CharsetMiddleware` under the
project's settings (``CHARSET_DETECTOR``, ``CHARSET_FORCE_ENCODING``, ``CHARSET_TLD_HINT``,
``CHARSET_RESPONSE_TYPES``), so that the audit's numbers predict the crawl.

The page goes through what a crawl does: Scrapy's ``responsetypes`` picks the response class
from the headers, URL and body, and the middleware's ``process_response`` decides. Nothing of
the middleware's rules is repeated here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..sniffing.decision import Decision

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

PLACEHOLDER_URL = "http://audit.invalid/"


class NotHandled(Exception):
    """The middleware passes this page on as stock Scrapy delivers it (``reason``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def charset_settings(settings: BaseSettings | Mapping[str, Any]) -> dict[str, Any]:
    """The ``CHARSET_*`` settings (the middleware reads no other), as a picklable dict."""
    items = settings.items() if isinstance(settings, Mapping) else settings.copy_to_dict().items()
    return {name: value for name, value in items if str(name).startswith("CHARSET_")}


class _AuditCrawler:
    """What the middleware's ``from_crawler`` reads, without an engine or a reactor."""

    def __init__(self, settings: Any) -> None:
        from scrapy.signalmanager import SignalManager
        from scrapy.statscollectors import MemoryStatsCollector

        self.settings = settings
        self.signals = SignalManager(self)
        self.stats = MemoryStatsCollector(self)  # type: ignore[arg-type]
        self.spider = None


class MiddlewareDecoder:
    """Decode pages as :class:`CharsetMiddleware` does with these ``CHARSET_*`` settings.

    The middleware is enabled whatever ``CHARSET_ENABLED`` says: the audit measures what the
    plugin delivers once it is on. Raises ``CharsetSettingsError`` for a bad setting.
    """

    def __init__(self, settings: Mapping[str, Any] | None = None) -> None:
        from scrapy.settings import Settings

        from ..integration.middleware import CharsetMiddleware

        values = dict(settings or {})
        values["CHARSET_ENABLED"] = True
        self.settings = values
        crawler = _AuditCrawler(Settings(values, priority="cmdline"))
        self.stats = crawler.stats
        self.middleware = CharsetMiddleware.from_crawler(crawler)  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[Any, ...]:  # rebuilt from its settings in a worker
        return (MiddlewareDecoder, (self.settings,))

    def __call__(
        self, body: bytes, content_types: Sequence[str] | None, url: str | None = None,
        status: int | None = None, name: str | None = None,
    ) -> tuple[str, Decision]:
        """``name``: the file's name, which Scrapy's ``responsetypes`` reads as it would read the
        URL's path (``page.html``) when there is no URL."""
        from scrapy.http import Headers, Request
        from scrapy.responsetypes import responsetypes

        from ..integration.response import CharsetResponseMixin

        raw = [value.encode("latin-1", "replace") for value in content_types or ()]
        headers = Headers({"Content-Type": raw} if raw else {})
        try:
            request = Request(url or PLACEHOLDER_URL)
        except (ValueError, TypeError):
            request = Request(PLACEHOLDER_URL)
        cls = responsetypes.from_args(
            headers=headers, url=url or name or request.url, body=body
        )
        response = cls(url=request.url, body=body, headers=headers, status=status or 200)
        before = dict(self.stats.get_stats())
        out = self.middleware.process_response(request, response)
        if isinstance(out, CharsetResponseMixin):
            decision = out.charset_decision
            if decision is not None:
                return out.text, decision
        raise NotHandled(self._why(before, cls.__name__))

    def _why(self, before: dict[str, Any], class_name: str) -> str:
        changed = [
            key for key, value in self.stats.get_stats().items() if before.get(key) != value
        ]
        for key in changed:
            if key.startswith("charset/skipped/"):
                reason = key.rpartition("/")[2]
                if reason == "type":
                    return f"not handled by the middleware: {class_name} (CHARSET_RESPONSE_TYPES)"
                return f"not handled by the middleware: {reason}"
        if "charset/error" in changed:
            return "not handled by the middleware: internal error (stock Scrapy's text)"
        return "not handled by the middleware"
