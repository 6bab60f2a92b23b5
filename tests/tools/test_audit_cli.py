"""The audit from the command line: the real ``scrapy`` executable inside and outside a project,
``python -m scrapy_charset audit``, URL crawls against a local server, outputs and exit codes."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_charset.tools.audit import main
from tests.support.server import LocalServer, html
from tests.tools.test_audit_pages import (
    EXPECTED_TOTAL,
    MIX,
    AuditRun,
    assert_mix_summary,
    run_audit,
)

REPO = Path(__file__).resolve().parents[2]
SCRAPY = str(Path(sys.executable).with_name("scrapy"))
MISSING = "http://www.zeitung.de/de/gone"  # answered 404 by the local server


@pytest.fixture
def mix_server(local_server: LocalServer) -> Iterator[LocalServer]:
    for page in MIX:
        local_server.add(page.path, html(page.body, page.content_type))
    yield local_server


def _env(server: LocalServer) -> dict[str, str]:
    """The local server doubles as the HTTP proxy, so URLs keep their real host names."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "http_proxy")}
    env["http_proxy"] = server.url("")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> AuditRun:
    proc = subprocess.run(
        args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=120
    )
    return AuditRun(proc.returncode, proc.stdout, proc.stderr)


def _make_project(root: Path) -> Path:
    (root / "scrapy.cfg").write_text("[settings]\ndefault = auditproj.settings\n", "utf-8")
    package = root / "auditproj"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "settings.py").write_text(
        'BOT_NAME = "auditproj"\n'
        'USER_AGENT = "auditproj-test/1.0"\n'
        "ROBOTSTXT_OBEY = False\n"
        "AUTOTHROTTLE_ENABLED = False\n"
        "HTTPCACHE_ENABLED = True\n"
        'HTTPCACHE_DIR = "pages-cache"\n',
        "utf-8",
    )
    return root


def test_scrapy_command_outside_a_project(mix_server: LocalServer, tmp_path: Path) -> None:
    mix_server.add("/logo.png", html(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"))
    image = "http://www.example.com/logo.png"
    urls = [page.url for page in MIX] + [MISSING, image]
    result = _run(
        [SCRAPY, "charset-audit", *urls, "--format", "jsonl",
         "-s", "AUTOTHROTTLE_START_DELAY=0"],
        tmp_path, _env(mix_server),
    )
    assert result.status == 0, result.err
    assert_mix_summary(result.summary(), errors=1, errors_group="de")
    gone = next(row for row in result.pages() if row["url"] == MISSING)
    assert (gone["error"], gone["status"]) == ("HTTP status 404", 404)
    logo = next(row for row in result.pages() if row["url"] == image)
    assert (logo["skipped"], logo["encoding"]) == ("not HTML: image/png", None)
    com = next(r for r in result.jsonl() if r["type"] == "summary" and r["group"] == "com")
    assert (com["pages"], com["skipped"]) == (3, 1)
    # Outside a project the crawl is polite by default: robots.txt is asked for.
    assert mix_server.received("/robots.txt")
    assert not (tmp_path / ".scrapy").exists()


def test_scrapy_command_inside_a_project_then_its_cache(
    mix_server: LocalServer, tmp_path: Path
) -> None:
    project = _make_project(tmp_path)
    env = _env(mix_server)
    url_list = project / "urls.txt"
    url_list.write_text("# the mix\n" + "".join(f"{p.url}\n" for p in MIX), "utf-8")
    result = _run([SCRAPY, "charset-audit", "--urls", "urls.txt", "--format", "jsonl"],
                  project, env)
    assert result.status == 0, result.err
    assert_mix_summary(result.summary())
    # The project's settings were used: its user agent, its robots.txt choice, its cache.
    agents = {r.headers.get("User-Agent") for r in mix_server.requests}
    assert agents == {"auditproj-test/1.0"}
    assert not mix_server.received("/robots.txt")
    assert (project / ".scrapy" / "pages-cache").is_dir()

    # --httpcache without a folder reads the project's HTTPCACHE_DIR: same pages, no network.
    before = len(mix_server.requests)
    cached = _run([SCRAPY, "charset-audit", "--httpcache", "--format", "jsonl"], project, env)
    assert cached.status == 0, cached.err
    assert_mix_summary(cached.summary())
    assert {row["kind"] for row in cached.pages()} == {"httpcache"}
    # python -m scrapy_charset audit is the same command, with the same project settings.
    module = _run([sys.executable, "-m", "scrapy_charset", "audit", "--httpcache",
                   "--format", "jsonl"], project, env)
    assert module.status == 0, module.err
    assert module.summary() == cached.summary()
    assert len(mix_server.requests) == before


def test_python_module_crawls_urls_from_stdin(mix_server: LocalServer, tmp_path: Path) -> None:
    urls = "".join(f"{p.url}\n" for p in MIX if p.tld == "jp")
    result = _run(
        [sys.executable, "-m", "scrapy_charset", "audit", "--urls", "-", "--format", "csv",
         "-s", "ROBOTSTXT_OBEY=False", "-s", "AUTOTHROTTLE_ENABLED=False",
         "--fail-over", "0.5", "--fail-on", "utf8"],
        tmp_path, _env(mix_server), stdin=urls,
    )
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert sorted(row["url"] for row in rows) == sorted(p.url for p in MIX if p.tld == "jp")
    assert {row["encoding"] for row in rows} == {"Shift_JIS", "EUC-JP"}
    # Both Japanese pages are garbled by a UTF-8 decode: 100% > 50%.
    assert result.status == 1
    assert "utf8: 100.0% of 2 pages garbled, over --fail-over 0.5" in result.err
    assert not mix_server.received("/robots.txt")


def test_scrapy_command_usage_errors(tmp_path: Path) -> None:
    env = dict(os.environ)
    bogus = _run([SCRAPY, "charset-audit", "--bogus-option", "x.html"], tmp_path, env)
    assert bogus.status == 2
    assert "unrecognized arguments: --bogus-option" in bogus.err


@pytest.fixture
def mix_files(tmp_path: Path) -> Path:
    for page in MIX:
        (tmp_path / f"{page.name}.html").write_bytes(page.body)
    (tmp_path / "pages.tsv").write_text(
        "".join(f"{p.name}.html\t{p.content_type}\t{p.url}\n" for p in MIX), "utf-8"
    )
    return tmp_path / "pages.tsv"


def test_exit_status_follows_the_garbled_share(mix_files: Path) -> None:
    # requests garbles 8 of 11 (73%), Scrapy 1 of 11 (9%).
    assert run_audit("--sidecar", str(mix_files), "--fail-over", "0.05").status == 1
    assert run_audit("--sidecar", str(mix_files), "--fail-over", "0.10").status == 0
    over = run_audit("--sidecar", str(mix_files), "--fail-over", "0.7", "--fail-on", "requests")
    assert over.status == 1
    assert "requests: 72.7% of 11 pages garbled" in over.err
    assert run_audit(
        "--sidecar", str(mix_files), "--fail-over", "0.75", "--fail-on", "requests"
    ).status == 0
    # "any": garbled by at least one default (all but the ASCII page and the header-vs-meta one).
    anyone = run_audit("--sidecar", str(mix_files), "--fail-over", "0.8", "--fail-on", "any")
    assert anyone.status == 1
    assert "any: 81.8% of 11 pages garbled" in anyone.err


def test_usage_errors_exit_2(mix_files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nothing = run_audit()
    assert nothing.status == 2
    assert "nothing to audit" in nothing.err
    assert run_audit("--sidecar", str(mix_files), "--fail-over", "5").status == 2
    assert run_audit("--sidecar", str(mix_files), "--defaults", "utf8,chardet").status == 2
    assert run_audit(
        "--sidecar", str(mix_files), "--defaults", "utf8", "--fail-on", "requests"
    ).status == 2
    assert main(["--no-such-option"]) == 2
    assert main(["-s", "NOEQUALS", str(mix_files)]) == 2
    assert main(["--group-by", "colour", str(mix_files)]) == 2
    capsys.readouterr()


def test_output_file_gets_records_and_the_terminal_the_table(
    mix_files: Path, tmp_path: Path
) -> None:
    out = tmp_path / "audit.jsonl"
    result = run_audit("--sidecar", str(mix_files), "--format", "jsonl", "--output", str(out))
    assert result.status == 0
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert sum(line["type"] == "page" for line in lines) == len(MIX)
    assert lines[-1]["group"] == "total" and lines[-1]["pages"] == EXPECTED_TOTAL[0]
    assert result.out.splitlines()[0].split()[:2] == ["tld", "pages"]


def test_only_the_chosen_defaults_are_compared(mix_files: Path) -> None:
    result = run_audit("--sidecar", str(mix_files), "--defaults", "utf8", "--fail-on", "utf8")
    header = result.out.splitlines()[0]
    assert 'decode("utf-8")' in header and "requests" not in header
    total = next(line for line in result.out.splitlines() if line.startswith("total")).split()
    assert total[-5:-3] == ["5", "(45%)"]


def test_progress_only_when_asked_or_on_a_terminal(mix_files: Path) -> None:
    quiet = run_audit("--sidecar", str(mix_files))
    assert quiet.err == ""
    shown = run_audit("--sidecar", str(mix_files), "--progress")
    assert "11 pages" in shown.err and "0 errors" in shown.err and "pages/s" in shown.err
