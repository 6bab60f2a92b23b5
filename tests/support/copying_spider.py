"""The jobs spider in a crawl whose middleware takes responses over by copying them, as it
does where Scrapy's responses lack the slots the plugin keeps its state in (or have a
``__dict__``, as in Scrapy 2.11). Its own module: importing it changes the crawl's process."""

from __future__ import annotations

from typing import Any

from scrapy_charset.integration import response as response_module
from tests.support.spiders import CharsetJobsSpider


class CopyingJobsSpider(CharsetJobsSpider):
    name = "charset_jobs_copying"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        response_module.IN_PLACE = False  # what the import-time check finds on such a Scrapy

    def parse(self, response: Any, job: dict[str, Any] | None = None) -> Any:
        for result in super().parse(response, job):
            if isinstance(result, dict):
                result["in_place"] = response_module.IN_PLACE
            yield result
