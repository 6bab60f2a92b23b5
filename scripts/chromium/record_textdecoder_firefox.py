"""Second opinion for the TextDecoder fixtures: run the same inputs through Firefox's TextDecoder.

Firefox's decoders (encoding_rs) follow the Encoding Standard; where Chromium's output differs,
Chromium deviates from the standard. Reads ``tests/data/chromium/textdecoder/*.jsonl.gz`` and
writes ``firefox-differences.json``: ``{"firefox": version, "differences": {encoding: {"<hex>
<ignoreBOM 0/1>": firefox output}}}``.

Firefox has no Playwright driver here, so a headless ``firefox`` opens a local page that fetches
the inputs, decodes them and posts the outputs back. Usage:
``python scripts/chromium/record_textdecoder_firefox.py`` (``$FIREFOX``, default ``firefox-esr``).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "data" / "chromium" / "textdecoder"
OUT = FIXTURES / "firefox-differences.json"
FIREFOX = os.environ.get("FIREFOX", "firefox-esr")
TIMEOUT = 900

PAGE = b"""<!DOCTYPE html><meta charset=utf-8><body><script>
(async () => {
  const names = await (await fetch('/names')).json();
  for (const name of names) {
    const inputs = await (await fetch('/inputs/' + name)).json();
    const out = inputs.map(([hex, ignoreBOM]) => {
      const bytes = new Uint8Array(hex.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
      return new TextDecoder(name, {ignoreBOM}).decode(bytes);
    });
    await fetch('/result/' + name, {method: 'POST', body: JSON.stringify(out)});
  }
  await fetch('/done', {method: 'POST', body: navigator.userAgent});
})();
</script>"""


def load(name: str) -> list[list[Any]]:
    with gzip.open(FIXTURES / f"{name}.jsonl.gz", "rt", encoding="utf-8") as f:
        f.readline()
        return [json.loads(line) for line in f]


def main() -> int:
    names = sorted(p.name.removesuffix(".jsonl.gz") for p in FIXTURES.glob("*.jsonl.gz"))
    cases = {name: load(name) for name in names}
    results: dict[str, list[str]] = {}
    done = threading.Event()
    agent: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def reply(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/":
                self.reply(PAGE, "text/html; charset=utf-8")
            elif self.path == "/names":
                self.reply(json.dumps(names).encode(), "application/json")
            elif self.path.removeprefix("/inputs/") in cases:
                name = self.path.removeprefix("/inputs/")
                data = [[h, ignore] for h, ignore, _ in cases[name]]
                self.reply(json.dumps(data).encode(), "application/json")
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.reply(b"", "text/plain")
            if self.path == "/done":
                agent.append(body.decode())
                done.set()
            else:
                results[self.path.removeprefix("/result/")] = json.loads(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen(
            [
                FIREFOX,
                "--headless",
                "--no-remote",
                "--profile",
                profile,
                f"http://127.0.0.1:{server.server_address[1]}/",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            if not done.wait(TIMEOUT):
                print("Firefox did not finish", file=sys.stderr)
                return 1
        finally:
            browser.terminate()
            browser.wait(30)
            server.shutdown()
    version = subprocess.run([FIREFOX, "--version"], capture_output=True, text=True).stdout
    differences: dict[str, dict[str, str]] = {}
    for name in names:
        for (hex_input, ignore, chromium), firefox in zip(cases[name], results[name], strict=True):
            if chromium != firefox:
                differences.setdefault(name, {})[f"{hex_input} {int(ignore)}"] = firefox
        print(name, len(differences.get(name, {})), "differences")
    data = {"firefox": version.strip(), "user_agent": agent[0], "differences": differences}
    OUT.write_text(json.dumps(data, ensure_ascii=True, indent=1, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
