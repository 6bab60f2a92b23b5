"""Check that Chromium's streaming TextDecoder gives its one-call output at every split.

For up to 1500 recorded inputs of 3 bytes or more per encoding (from the TextDecoder fixtures),
decodes each split into two chunks at every position (``stream: true`` then a final call) and
byte by byte, and prints per encoding how many inputs differ from one ``decode`` call. Writes
nothing: the result is summarised in ``tests/data/chromium/FINDINGS.md``.

Usage: ``python scripts/chromium/check_textdecoder_streaming.py``
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser import chromium  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "data" / "chromium" / "textdecoder"
PER_ENCODING = 1500

JS_CHECK = """([name, hexes]) => {
  const out = [];
  for (const hex of hexes) {
    const b = new Uint8Array(hex.length / 2);
    for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.substr(2 * i, 2), 16);
    const whole = new TextDecoder(name).decode(b);
    for (let k = 1; k < b.length; k++) {
      const d = new TextDecoder(name);
      if (d.decode(b.subarray(0, k), {stream: true}) + d.decode(b.subarray(k)) !== whole) {
        out.push([hex, k]);
        break;
      }
    }
    const d = new TextDecoder(name);
    let s = '';
    for (let i = 0; i < b.length; i++) s += d.decode(b.subarray(i, i + 1), {stream: true});
    if (s + d.decode() !== whole) out.push([hex, -1]);
  }
  return out;
}"""


def main() -> int:
    differing = 0
    with chromium() as browser:
        page = browser.new_page()
        for path in sorted(FIXTURES.glob("*.jsonl.gz")):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                name = json.loads(f.readline())["encoding"]
                rows = [json.loads(line) for line in f]
            hexes = [h for h, ignore_bom, _ in rows if not ignore_bom and len(h) >= 6]
            hexes = hexes[-PER_ENCODING:]
            bad = page.evaluate(JS_CHECK, [name, hexes])
            differing += len(bad)
            print(f"{name}: {len(hexes)} inputs, {len(bad)} differ {bad[:3]}", flush=True)
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
