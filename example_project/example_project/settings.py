"""Settings of the example project: stock Scrapy settings plus scrapy-charset."""

BOT_NAME = "example_project"
SPIDER_MODULES = ["example_project.spiders"]
NEWSPIDER_MODULE = "example_project.spiders"

# The bundled demo site has no robots.txt; nothing else here differs from a new project.
ROBOTSTXT_OBEY = False
TELNETCONSOLE_ENABLED = False

# scrapy-charset, enabled the documented way: as an add-on (the downloader middleware and the
# item pipeline).
ADDONS = {"scrapy_charset.Addon": 0}

# Or the one-line alternative, the middleware alone (instead of ADDONS above):
# DOWNLOADER_MIDDLEWARES = {"scrapy_charset.CharsetMiddleware": 585}
