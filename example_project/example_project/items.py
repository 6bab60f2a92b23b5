"""What the example spider extracts from each page."""

import scrapy


class PageItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    text = scrapy.Field()  # the page's <p id="s">
    encoding = scrapy.Field()  # the WHATWG name of the encoding the text was read with
    decided_by = scrapy.Field()  # which sniffing rule chose it (see docs/decision.md)
