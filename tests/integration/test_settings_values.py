"""Every CHARSET_* setting: every kind of wrong value stops the crawl at start-up with a message
naming the setting; the spellings Scrapy users type on the command line are accepted."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured

from scrapy_charset.encoding import lookup
from scrapy_charset.integration.pipeline import CharsetPipeline
from scrapy_charset.integration.pipeline_settings import PipelineConfig
from scrapy_charset.integration.settings import CharsetSettingsError, read_settings
from tests.integration.test_middleware_support import build, make_crawler, middleware
from tests.support.crawl import REPO


class Opaque:
    """An object that is no setting value of any kind."""


class BrokenDetector:
    def __init__(self) -> None:
        raise RuntimeError("cannot start")

    def detect(self, data: bytes, *, tld: str | None) -> None:
        return None


INF, NAN = float("inf"), float("nan")
CONTAINERS = [[], [1], ["on"], {}, {"a": 1}, (), Opaque(), b"1"]
BOOLEANS = [
    "CHARSET_ENABLED",
    "CHARSET_TLD_HINT",
    "CHARSET_ITEM_ENABLED",
    "CHARSET_ITEM_ADD_FINDINGS",
]
INTEGERS = ["CHARSET_ITEM_SPIKE_WINDOW", "CHARSET_ITEM_SPIKE_BASELINE", "CHARSET_ITEM_MAX_FIELDS"]
NUMBERS = [
    "CHARSET_ITEM_SPIKE_FACTOR",
    "CHARSET_ITEM_SPIKE_MIN_JUMP",
    "CHARSET_ITEM_SPIKE_PVALUE",
    "CHARSET_ITEM_THRESHOLD",
    "CHARSET_ITEM_DROP_THRESHOLD",
]
LISTS = [
    "CHARSET_RESPONSE_TYPES",
    "CHARSET_ITEM_FIELDS",
    "CHARSET_ITEM_URL_FIELDS",
    "CHARSET_ITEM_NORMALIZE_FIELDS",
]

BAD: list[tuple[str, Any]] = [
    *(
        (name, value)
        for name in BOOLEANS
        for value in [*CONTAINERS, INF, NAN, 2, 0.5, -1, "maybe", "", "2"]
    ),
    *(
        (name, value)
        for name in INTEGERS
        for value in [
            *CONTAINERS,
            INF,
            -INF,
            NAN,
            True,
            False,
            0,
            -3,
            1.5,
            "x",
            "inf",
            "1e999",
            "2.5",
        ]
    ),
    *(
        (name, value)
        for name in NUMBERS
        for value in [*CONTAINERS, INF, NAN, True, -0.5, 10**400, "x", "nan", "-inf"]
    ),
    *(
        (name, value)
        for name in LISTS
        for value in [3, 2.5, True, Opaque(), {"a": 1}, b"html", [1], [None]]
    ),
    *(
        ("CHARSET_FORCE_ENCODING", value)
        for value in [3, INF, True, [], {}, Opaque(), "utf-7", "rot13", "iso-2022-kr"]
    ),
    *(
        ("CHARSET_DETECTOR", value)
        for value in [3, INF, True, [], {}, Opaque(), "nonsense", BrokenDetector]
    ),
    *(
        ("CHARSET_ITEM_NORMALIZE", value)
        for value in [3, INF, True, [], ["NFC"], {}, Opaque(), "NFX"]
    ),
    *(
        ("CHARSET_ITEM_FINDINGS_FIELD", value)
        for value in [3, INF, True, [], ["x"], {}, Opaque(), "", " "]
    ),
]
# Values that are wrong only for a rate (0-1) or a factor (>= 1).
BAD += [(name, 1.5) for name in NUMBERS if name != "CHARSET_ITEM_SPIKE_FACTOR"]
BAD += [("CHARSET_ITEM_SPIKE_FACTOR", 0.5)]


def start(settings: dict[str, Any]) -> None:
    """Build both components as Scrapy does when a crawl starts."""
    crawler = make_crawler(settings)
    for component in (CharsetPipeline, type(middleware()[0])):
        try:
            build(component, crawler)
        except NotConfigured:
            pass


@pytest.mark.parametrize(("name", "value"), BAD, ids=lambda v: repr(v)[:40])
def test_every_wrong_value_stops_the_start_naming_the_setting(name: str, value: Any) -> None:
    with pytest.raises(CharsetSettingsError) as info:
        start({name: value})
    assert name in str(info.value)
    assert isinstance(info.value, ValueError)  # the documented base class


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        *((word, True) for word in ["1", "true", "True", "TRUE", "on", "On", "yes", " true "]),
        *((word, False) for word in ["0", "false", "False", "off", "OFF", "no", " 0 "]),
        *((value, bool(value)) for value in [True, False, 1, 0, 1.0, 0.0]),
    ],
)
def test_boolean_spellings(spelling: Any, expected: bool) -> None:
    crawler = make_crawler({"CHARSET_TLD_HINT": spelling, "CHARSET_ITEM_ADD_FINDINGS": spelling})
    assert read_settings(crawler.settings).tld_hint is expected
    assert PipelineConfig.from_settings(crawler.settings).add_findings is expected


def test_number_and_list_spellings_from_the_command_line() -> None:
    config = PipelineConfig.from_settings(
        make_crawler(
            {
                "CHARSET_ITEM_SPIKE_WINDOW": "20",
                "CHARSET_ITEM_MAX_FIELDS": "7.0",
                "CHARSET_ITEM_SPIKE_FACTOR": "2.5",
                "CHARSET_ITEM_THRESHOLD": "off",
                "CHARSET_ITEM_DROP_THRESHOLD": "0.5",
                "CHARSET_ITEM_FIELDS": "title, body.text",
                "CHARSET_ITEM_URL_FIELDS": ("link",),
            }
        ).settings
    )
    assert (config.spike_window, config.max_fields, config.spike_factor) == (20, 7, 2.5)
    assert config.threshold is None
    assert config.drop_threshold == 0.5
    assert config.fields == ("title", "body.text")
    assert config.url_fields == ("link",)
    defaults = PipelineConfig.from_settings(make_crawler().settings)
    assert defaults == PipelineConfig()


@pytest.mark.parametrize("spelling", ["None", "none", "NONE", " none ", ""])
def test_optional_settings_are_off_as_the_command_line_spells_none(spelling: str) -> None:
    # `-s CHARSET_FORCE_ENCODING=None` arrives as the string "None": no encoding is forced, as
    # `-s CHARSET_DETECTOR=None` turns detection off and "none" switches a threshold off.
    crawler = make_crawler(
        {"CHARSET_FORCE_ENCODING": spelling, "CHARSET_ITEM_NORMALIZE": spelling}
    )
    assert read_settings(crawler.settings, crawler).force_encoding is None
    assert PipelineConfig.from_settings(crawler.settings).normalize is None
    for word in ["off", "false", "OFF"]:
        assert PipelineConfig.from_settings(
            make_crawler({"CHARSET_ITEM_NORMALIZE": word}).settings
        ).normalize is None
    # A label is still a label, and a wrong one still stops the start.
    forced = make_crawler({"CHARSET_FORCE_ENCODING": "latin1"})
    assert read_settings(forced.settings, forced).force_encoding == lookup("latin1")
    with pytest.raises(CharsetSettingsError):
        start({"CHARSET_FORCE_ENCODING": "nonsense"})


SPIDER = textwrap.dedent(
    """
    import scrapy

    class Nothing(scrapy.Spider):
        name = "nothing"
        start_urls = []
        custom_settings = {"ADDONS": {"scrapy_charset.Addon": 0}}
    """
)


def run_spider(tmp_path: Path, *settings: str) -> subprocess.CompletedProcess[str]:
    spider = tmp_path / "nothing.py"
    spider.write_text(SPIDER)
    args = [arg for setting in settings for arg in ("-s", setting)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "runspider", str(spider), "-s", "LOG_LEVEL=INFO", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_scrapy_command_line(tmp_path: Path) -> None:
    """``scrapy runspider -s NAME=VALUE``: "off" is understood, a wrong value stops the crawl
    before it starts with the setting named."""
    ok = run_spider(tmp_path, "CHARSET_ITEM_ENABLED=off", "CHARSET_TLD_HINT=no")
    assert ok.returncode == 0, ok.stderr
    assert "Spider opened" in ok.stderr
    assert "CharsetPipeline" not in ok.stderr.split("Enabled item pipelines")[1].split("]")[0]

    bad = run_spider(tmp_path, "CHARSET_ITEM_SPIKE_WINDOW=inf")
    assert "Spider opened" not in bad.stderr
    assert "CharsetSettingsError: CHARSET_ITEM_SPIKE_WINDOW" in bad.stderr
