#!/usr/bin/env python3
"""Times how long headless Chromium takes to open a viewer page on its last entry.

    python3 open-viewer.py PAGE ENTRIES [SAMPLES]

From the start of navigation to `PAGE#select=ENTRIES` until the list shows the entry as selected
and the diff of its state is on screen; prints "opened in S s" per sample. Needs Debian's
`chromium` and PyPI's `playwright` (`pip install playwright`; no browser download: it drives the
system Chromium through `executable_path`).
"""
import shutil
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

page_path, entries = Path(sys.argv[1]).resolve(), int(sys.argv[2])
samples = int(sys.argv[3]) if len(sys.argv) > 3 else 3
browser_path = next(filter(None, map(shutil.which, ["chromium", "chromium-browser", "google-chrome"])), None)
if browser_path is None:
    sys.exit("chromium is not installed")

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"])
    for _ in range(samples):
        context = browser.new_context()
        page = context.new_page()
        start = time.monotonic()
        page.goto(f"{page_path.as_uri()}#select={entries}", wait_until="commit")
        page.wait_for_selector(f'[data-selected="{entries}"]', timeout=120_000)
        page.wait_for_selector(".path", timeout=120_000)
        print(f"opened in {time.monotonic() - start:.3f} s", flush=True)
        context.close()
    browser.close()
