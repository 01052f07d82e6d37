#!/usr/bin/env python3
"""Makes docs/images/inspector.png: the inspector's live page in headless Chromium, with a
stand-in app (live_client.py) that streamed 300 entries and an effect, one entry selected.

    python3 screenshot.py INSPECTOR_EXECUTABLE OUTPUT.png

Re-run it when the page changes. Needs Debian's `chromium`, PyPI's `playwright` and `websockets`.
"""
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from inspector_page_test import BROWSER, AppThread, start_inspector  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

executable, output = sys.argv[1], sys.argv[2]
data = tempfile.mkdtemp(prefix="inspector-shot-")
inspector, url, port, token = start_inspector(executable, data)
try:
    app = AppThread(port, token, instance="counter-7F3A", name="Counter",
                    allows=("jump", "undo", "redo", "returnToPresent", "skip", "dispatch", "pause", "resume"))
    app.run(app.app.send_entries(300))
    other = AppThread(port, token, instance="settings-21C0", name="Settings", allows=())
    other.run(other.app.send_entries(12))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_selector('body[data-last="300"]', timeout=20_000)
        page.locator('.row:has-text("#298")').click()
        page.fill("#dispatch-text", '{"add":{"_0":5}}')
        page.wait_for_timeout(200)
        page.screenshot(path=output)
        browser.close()
finally:
    inspector.kill()
    shutil.rmtree(data, ignore_errors=True)
print("wrote", output)
