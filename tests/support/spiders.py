"""Small spiders shared by the crawl tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import scrapy


class TextSpider(scrapy.Spider):
    """Fetch each of ``urls`` (a JSON list or list) and yield what a callback sees of it."""

    name = "text"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = list(urls or [])

    async def start(self) -> Any:  # Scrapy >= 2.13
        for item_or_request in self.start_requests():
            yield item_or_request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse, errback=self.failed, dont_filter=True)

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        item: dict[str, Any] = {
            "url": response.url,
            "status": response.status,
            "class": type(response).__name__,
            "body_len": len(response.body),
        }
        if hasattr(response, "text"):
            item["encoding"] = response.encoding
            item["text"] = response.text
            item["title"] = response.css("title::text").get()
            item["p"] = response.css("p::text").getall()
            item["meta_decision"] = _decision_repr(response)
        item["flags"] = list(response.flags)
        yield item

    def failed(self, failure: Any) -> Iterator[dict[str, Any]]:
        yield {"url": failure.request.url, "error": failure.type.__name__}


def _decision_repr(response: Any) -> dict[str, Any] | None:
    """The decision in ``response.meta``, checked against the one on the response."""
    record = response.meta.get("charset_decision")
    decision = getattr(response, "charset_decision", None)
    assert record == (decision.as_record() if decision is not None else None), (record, decision)
    return record  # type: ignore[no-any-return]


class CharsetJobsSpider(scrapy.Spider):
    """Run ``jobs`` (a list of dicts) and yield what each callback sees.

    A job has ``url`` and optionally ``method``, ``meta``, ``follow`` (a CSS selector whose
    first match is followed with ``response.follow``) and ``form`` (data submitted through the
    page's first form with ``FormRequest.from_response``). Follow-ups yield items too, so
    tests can compare what the server received with what the page said.
    """

    name = "charset_jobs"

    def __init__(self, jobs: list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.jobs = list(jobs or [])

    async def start(self) -> Any:  # Scrapy >= 2.13
        for item_or_request in self.start_requests():
            yield item_or_request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for job in self.jobs:
            yield scrapy.Request(
                job["url"],
                method=job.get("method", "GET"),
                meta=dict(job.get("meta", {})),
                callback=self.parse,
                errback=self.failed,
                cb_kwargs={"job": job},
                dont_filter=True,
            )

    def parse(self, response: Any, job: dict[str, Any] | None = None) -> Iterator[Any]:
        yield describe_response(response, (job or {}).get("name", ""))
        if job and "follow" in job:
            href = response.css(job["follow"]).get()
            yield response.follow(
                href, callback=self.parse, cb_kwargs={"job": {"name": f"{job['name']}/follow"}}
            )
        if job and "form" in job:
            import warnings

            from scrapy.exceptions import ScrapyDeprecationWarning

            with warnings.catch_warnings():
                # Scrapy 2.19 deprecates from_response(); spiders still use it.
                warnings.simplefilter("ignore", ScrapyDeprecationWarning)
                form = scrapy.FormRequest.from_response(
                    response,
                    formdata=job["form"],
                    callback=self.parse,
                    cb_kwargs={"job": {"name": f"{job['name']}/form"}},
                    dont_filter=True,
                )
            yield form

    def failed(self, failure: Any) -> Iterator[dict[str, Any]]:
        yield {"url": failure.request.url, "error": failure.type.__name__}


class CharsetOptOutSpider(CharsetJobsSpider):
    """Opts out of the charset middleware with a spider attribute."""

    name = "charset_opt_out"
    charset_enabled = False


class ExplodingDetector:
    """A detector that always fails: to check that failures never lose a response."""

    def detect(self, data: bytes, *, tld: str | None) -> Any:
        raise RuntimeError("detector failure (injected)")


def describe_response(response: Any, name: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        "name": name,
        "url": response.url,
        "status": response.status,
        "class": type(response).__name__,
        "is_html": isinstance(response, scrapy.http.HtmlResponse),
        "flags": list(response.flags),
        "body": response.body.decode("latin-1"),
        "reactor": _reactor_name(),
    }
    if hasattr(response, "text"):
        item["encoding"] = response.encoding
        item["text"] = response.text
        if isinstance(response, scrapy.http.HtmlResponse):
            item["title"] = response.css("title::text").get()
            item["p"] = response.xpath("//p//text()").getall()
        item["decision"] = _decision_repr(response)
    return item


def _reactor_name() -> str:
    from twisted.internet import reactor

    return type(reactor).__name__


class OptOutRaisesSpider(TextSpider):
    """A ``TextSpider`` whose ``charset_enabled`` is a property that raises."""

    name = "opt_out_raises"

    @property
    def charset_enabled(self) -> bool:
        raise RuntimeError("charset_enabled cannot be read")


class FeedSpider(scrapy.spiders.XMLFeedSpider):
    """XMLFeedSpider with its default iterator (``iternodes``: libxml2 reads the body in
    ``response.encoding``) over ``urls``; each ``<item>``'s ``<t>`` text, and the body decoded
    with ``response.encoding`` as a spider might."""

    name = "feed"
    itertag = "item"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = list(urls or [])

    def parse_node(self, response: Any, selector: Any) -> Iterator[dict[str, Any]]:
        try:
            decoded: str | None = response.body.decode(response.encoding)
        except (UnicodeDecodeError, LookupError) as error:
            decoded = type(error).__name__
        yield {
            "url": response.url,
            "t": selector.xpath("t/text()").get(),
            "encoding": response.encoding,
            "decoded": decoded,
        }


class FormsSpider(scrapy.Spider):
    """Submit every form of the page at ``url`` (``FormRequest.from_response``) and request
    ``links`` with ``encoding=response.encoding`` (``scrapy.Request`` and ``follow``), one item
    per reply. Without ``url`` (a resumed crawl) only what the queue holds is fetched. Imports
    nothing of the plugin: a crawl without it runs without it."""

    name = "forms"
    custom_settings = {"CONCURRENT_REQUESTS": 1}

    def __init__(self, url: str | None = None, links: list[str] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.start_urls = [url] if url else []  # (Scrapy's own start requests, to parse)
        self.links = list(links or [])

    def parse(self, response: Any) -> Iterator[scrapy.Request]:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (deprecated in Scrapy 2.19)
            for number in range(len(response.css("form"))):
                yield scrapy.FormRequest.from_response(
                    response, formnumber=number, callback=self.reply, dont_filter=True
                )
        for link in self.links:
            url = response.urljoin(link)
            yield scrapy.Request(url, callback=self.reply, encoding=response.encoding)
            yield response.follow(link + "&by=follow", self.reply, encoding=response.encoding)

    def reply(self, response: Any) -> Iterator[dict[str, Any]]:
        import sys

        yield {"url": response.url, "plugin": "scrapy_charset" in sys.modules}


class BodySpider(TextSpider):
    """Fetch each of ``urls`` and keep only what the body is (an archiving crawl): the text
    is never asked for. Each item says whether anything had decoded it by then."""

    name = "body"

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        import hashlib

        yield {
            "url": response.url,
            "class": type(response).__name__,
            "sha1": hashlib.sha1(response.body).hexdigest(),
            # Scrapy's text cache (stock Scrapy's and the plugin's): None until decoded.
            "decoded": getattr(response, "_cached_ubody", None) is not None,
            "source": (response.meta.get("charset_decision") or {}).get("source"),
        }
