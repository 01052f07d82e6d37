#!/usr/bin/env python3
"""Browser tests of the inspector's live page, in headless Chromium driven by Playwright.

    python3 inspector_page_test.py INSPECTOR_EXECUTABLE

Starts `chronicle-inspector` on a free port with a fresh data folder, connects a stand-in app
speaking the live link (live_client.py), opens the page and checks: entries appear live; clicking
jump sends the command to the app; a dispatch with bad JSON shows the error (the page's own for
text that is not JSON, the app's typed error for JSON the app cannot decode); a command the app did
not allow is refused; a "__proto__" key of a state is shown. Ends with "N passed, N failed".
Needs Debian's `chromium` and PyPI's `playwright` and `websockets` (no browser download).
"""
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from live_client import LiveApp  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

BROWSER = next(filter(None, map(shutil.which, ["chromium", "chromium-browser", "google-chrome"])), None)


def start_inspector(executable, data):
    process = subprocess.Popen([executable, "--data", data], stdout=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    match = re.search(r"on (http://127\.0\.0\.1:(\d+)/\?token=(\w+))", first)
    if not match:
        process.kill()
        raise RuntimeError("unexpected first line: " + first)
    process.stdout.readline()
    return process, match.group(1), int(match.group(2)), match.group(3)


class AppThread:
    """Runs a LiveApp on its own asyncio loop, so the sync Playwright API can drive the page."""

    def __init__(self, port, token, **options):
        self.loop = asyncio.new_event_loop()
        self.app = LiveApp(f"ws://127.0.0.1:{port}/live/app", token, **options)
        self.answer = None
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.run(self.app.connect())
        asyncio.run_coroutine_threadsafe(self.app.read(lambda c: self.answer(c) if self.answer else
                                                       {"ok": True, "position": None}), self.loop)

    def run(self, coroutine, timeout=60):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)


def wait_until(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def main():
    executable = sys.argv[1]
    results = []
    data = tempfile.mkdtemp(prefix="inspector-page-")
    inspector, url, port, token = start_inspector(executable, data)
    try:
        app = AppThread(port, token, instance="page-test", allows=("jump", "undo", "dispatch"))
        app.run(app.app.send_entries(50))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(url)

            def test(name, body):
                try:
                    body()
                    results.append((name, None))
                    print(f"PASS {name}", flush=True)
                except Exception as error:  # noqa: BLE001
                    results.append((name, error))
                    print(f"FAIL {name}: {error}", flush=True)
                    traceback.print_exc()

            def entries_appear_live():
                page.wait_for_selector('body[data-last="50"]', timeout=10_000)
                app.run(app.app.send_entries(25))
                page.wait_for_selector('body[data-last="75"]', timeout=10_000)
                assert page.locator(".row").last.inner_text().startswith("#75"), page.locator(".row").last.inner_text()
                assert "Counter" in page.locator(".instance").first.inner_text()

            def clicking_jump_sends_the_command():
                page.uncheck("#follow")
                page.evaluate("list.scrollTop = 0; renderRows()")
                page.locator('.row[data-pos="9"]').click()
                page.click('button[data-command="jump"]')
                assert wait_until(lambda: any(c["name"] == "jump" for c in app.app.commands)), app.app.commands
                jump = next(c for c in app.app.commands if c["name"] == "jump")
                assert jump["position"] == 10, jump
                page.wait_for_selector("#result:has-text('jump: done')", timeout=5_000)

            def dispatch_of_text_that_is_not_json_shows_the_error():
                before = len(app.app.commands)
                page.fill("#dispatch-text", "{increment")
                page.click('button[data-command="dispatch"]')
                page.wait_for_selector("#result.error:has-text('not JSON')", timeout=5_000)
                assert len(app.app.commands) == before

            def dispatch_the_app_cannot_decode_shows_its_typed_error():
                app.answer = lambda c: {"error": {"kind": "undecodable", "message": "action: unknown case 'nope' at offset 2"}}
                page.fill("#dispatch-text", '{"nope":{}}')
                page.click('button[data-command="dispatch"]')
                page.wait_for_selector("#result.error:has-text('undecodable: action: unknown case')", timeout=5_000)
                sent = [c for c in app.app.commands if c["name"] == "dispatch"][-1]
                assert sent["action"] == {"nope": {}} and sent["context"] == "inspector", sent
                app.answer = None

            def a_command_the_app_did_not_allow_is_disabled_and_refused():
                assert page.locator('button[data-command="reset"]').is_disabled()
                before = len(app.app.commands)
                page.evaluate("command('reset')")
                page.wait_for_selector("#result.error:has-text('notAllowed')", timeout=5_000)
                assert len(app.app.commands) == before

            def a_state_key_named_proto_is_shown():
                line = json.dumps({"entry": {"index": 75, "seq": 76, "time": 99000, "wallTime": 1, "cause": {"kind": "user"},
                                             "type": "rename", "action": {"rename": {}}, "replayable": True,
                                             "outcome": "reduced", "durations": {"chain": 1}}})
                state = '{"state":{"index":75,"patch":[[["__proto__"],"kept"]]}}'
                app.run(app.app.socket.send(line + "\n" + state + "\n"))
                app.app.next += 2
                page.check("#follow")
                page.wait_for_selector('body[data-last="76"]', timeout=5_000)
                page.locator('.row:has-text("#76")').click()
                page.wait_for_selector("#state .key:has-text('__proto__')", timeout=5_000)
                assert "kept" in page.locator("#diff").inner_text()

            def a_gap_and_a_cause_chain_are_shown():
                gap = '{"gap":{"dropped":5,"entries":2}}'
                caused = json.dumps({"entry": {"index": 76, "seq": 79, "time": 99500, "wallTime": 2,
                                               "cause": {"kind": "effect", "parent": 76, "effect": 1},
                                               "type": "loaded", "action": {"loaded": {}}, "replayable": True,
                                               "outcome": "reduced", "durations": {"chain": 1}}})
                app.run(app.app.socket.send(gap + "\n" + caused + "\n"))
                app.app.next += 2
                page.wait_for_selector('body[data-last="79"]', timeout=5_000)
                assert page.locator(".row.gap").inner_text() == "gap: 5 lines (2 entries) dropped"
                page.locator('.row:has-text("#79")').click()
                assert page.locator("#cause-chain").inner_text() == "#79 ← #76 rename", \
                    page.locator("#cause-chain").inner_text()

            for name, body in [(f.__name__, f) for f in [
                    entries_appear_live, clicking_jump_sends_the_command,
                    dispatch_of_text_that_is_not_json_shows_the_error,
                    dispatch_the_app_cannot_decode_shows_its_typed_error,
                    a_command_the_app_did_not_allow_is_disabled_and_refused, a_state_key_named_proto_is_shown,
                    a_gap_and_a_cause_chain_are_shown]]:
                test(name, body)
            browser.close()
    finally:
        inspector.kill()
        shutil.rmtree(data, ignore_errors=True)
    failed = sum(1 for _, error in results if error)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
