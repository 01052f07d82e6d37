#!/usr/bin/env python3
"""Makes docs/images/viewer.png: the HTML viewer page `swift run chronicle-demo` writes, in
headless Chromium, on entry #17, the login form's password (redacted in the diff and the state).

    python3 docs/images/viewer-screenshot.py [VIEWER.html] [OUTPUT.png]

Without a page it runs the demo into a temporary folder first (from the repository root). Re-run
it when the page changes. Needs Debian's `chromium` and PyPI's `playwright` (no browser download:
it drives the system's Chromium)."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

root = pathlib.Path(__file__).resolve().parent.parent.parent
output = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else root / "docs/images/viewer.png"
browser_path = next(filter(None, map(shutil.which, ["chromium", "chromium-browser", "google-chrome"])), None)
if browser_path is None:
    sys.exit("no chromium on PATH")

folder = None
if len(sys.argv) > 1:
    page_path = pathlib.Path(sys.argv[1]).resolve()
else:
    folder = pathlib.Path(tempfile.mkdtemp(prefix="viewer-shot-"))
    subprocess.run(["swift", "run", "chronicle-demo", str(folder)], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    page_path = folder / "viewer.html"

try:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        # `#select=N` is the page's own deep link to entry #N.
        page.goto(page_path.as_uri() + "#select=17")
        page.wait_for_selector(".row.selected", timeout=20_000)
        page.wait_for_timeout(200)
        page.screenshot(path=str(output))
        browser.close()
finally:
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
print("wrote", output)
