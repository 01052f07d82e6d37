#!/usr/bin/env python3
"""The 100,000-entry burst into the open inspector page (Benchmarks/HISTORY.md, "Live inspector").

    python3 burst_benchmark.py INSPECTOR_EXECUTABLE [ENTRIES] [SAMPLES]

For each sample: a fresh inspector and page; a stand-in app (live_client.py) sends ENTRIES entries,
each with its state line (a full state every 256), as fast as it can; prints the time from the
app's last send to the last entry on screen (its row in the list), the time from the page receiving the lines holding it to their being drawn,
the page's total time reading lines, the page's JS heap then, and the inspector's CPU time (Linux)
(`performance.memory.usedJSHeapSize`, Chromium with --enable-precise-memory-info).
"""
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from inspector_page_test import BROWSER, AppThread, start_inspector  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

executable = sys.argv[1]
entries = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
samples = int(sys.argv[3]) if len(sys.argv) > 3 else 3
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=BROWSER,
                                         args=["--no-sandbox", "--disable-gpu", "--enable-precise-memory-info"])
    for _ in range(samples):
        data = tempfile.mkdtemp(prefix="inspector-burst-")
        inspector, url, port, token = start_inspector(executable, data)
        try:
            app = AppThread(port, token, instance="burst")
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector(".instance", timeout=10_000)
            start = time.monotonic()
            app.run(app.app.send_entries(entries, batch=1000), timeout=600)
            sent = time.monotonic()
            page.wait_for_function(
                f"document.querySelector('#spacer .row:last-child') && "
                f"document.querySelector('#spacer .row:last-child').textContent.startsWith('#{entries}')",
                timeout=120_000, polling="raf")
            shown = time.monotonic()
            heap = page.evaluate("performance.memory.usedJSHeapSize")
            with open(f"/proc/{inspector.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            inspector_cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            timing = page.evaluate("timing")
            print(f"sent {entries} entries in {sent - start:.2f} s; last entry on screen "
                  f"{(timing['drawn'] - timing['arrived']) / 1000:.3f} s after its lines arrived "
                  f"({shown - sent:.3f} s after the app's last send); the page read lines for "
                  f"{timing['reading'] / 1000:.2f} s in all; JS heap {heap / 1e6:.1f} MB; the inspector's CPU "
                  f"{inspector_cpu:.2f} s ({entries / inspector_cpu:,.0f} entries per CPU second)", flush=True)
            page.close()
        finally:
            inspector.kill()
            shutil.rmtree(data, ignore_errors=True)
    browser.close()
