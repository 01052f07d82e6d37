#!/usr/bin/env python3
"""End-to-end tests with the real pieces: the inspector executable, the example app
`inspected-counter` (ChronicleLiveLink) in processes of its own, and the page in headless Chromium.

    python3 end_to_end_test.py INSPECTOR_EXECUTABLE INSPECTED_COUNTER_EXECUTABLE

The app's interface: `inspected-counter --url ws://127.0.0.1:PORT/live/app --token TOKEN
[--name NAME] [--count N] [--rate PER_SECOND] [--allow all|none] [--stay]` prints `instance <id>`
and `connected`; with `--stay` it reads stdin lines `state` (answers `state <json>`), `send <action
json>` (`sent`), `export <path>` (`exported`), `flushed?` (`flushed <n>`) and `quit`.

Scenarios: entries appear live; jump in the page changes the app's state (read back from the app);
a dispatched action is processed with its cause; undecodable JSON shows its error; kill -9 of the
inspector mid-stream, restart, the app resumes and the saved session equals the app's own Journal
JSON export entry for entry; 8 app processes at once; the secret the app keeps in its state
(E2E_SECRET, "hunter2" unless set) is in no frame the page received and no saved file.
Ends with "N passed, N failed".
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from inspector_page_test import BROWSER, start_inspector, wait_until  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

SECRET = os.environ.get("E2E_SECRET", "hunter2")


class App:
    def __init__(self, executable, port, token, *options):
        self.process = subprocess.Popen(
            [executable, "--url", f"ws://127.0.0.1:{port}/live/app", "--token", token, *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.instance = self.expect(r"instance (\S+)").group(1)

    def expect(self, pattern, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the app ended waiting for {pattern}")
            match = re.match(pattern, line.strip())
            if match:
                return match
        raise RuntimeError(f"no {pattern} in {timeout} s")

    def ask(self, line, answer):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.expect(answer)

    def state(self):
        return json.loads(self.ask("state", r"state (.*)").group(1))

    def quit(self):
        try:
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
            self.process.wait(10)
        except Exception:  # noqa: BLE001
            self.process.kill()


def main():
    inspector_executable, app_executable = sys.argv[1], sys.argv[2]
    results = []

    def test(name, body):
        try:
            body()
            results.append((name, None))
            print(f"PASS {name}", flush=True)
        except Exception as error:  # noqa: BLE001
            results.append((name, error))
            print(f"FAIL {name}: {error}", flush=True)
            traceback.print_exc()

    data = tempfile.mkdtemp(prefix="inspector-e2e-")
    inspector, url, port, token = start_inspector(inspector_executable, data)
    frames = []
    apps = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
            page.goto(url)
            app = App(app_executable, port, token, "--name", "E2E", "--count", "20", "--allow", "all", "--stay")
            apps.append(app)
            app.expect("connected")

            def entries_appear_live():
                page.locator(f'.instance[data-instance="{app.instance}"]').click()
                page.wait_for_function("Number(document.body.dataset.count) >= 20", timeout=20_000)

            def jump_in_the_page_changes_the_apps_state():
                present = app.state()
                page.uncheck("#follow")
                page.evaluate("list.scrollTop = 0; renderRows()")
                page.locator('.row[data-pos="0"]').click()
                shown = page.evaluate("stateAfter(0)")
                page.click('button[data-command="jump"]')
                page.wait_for_selector("#result:has-text('jump: done')", timeout=10_000)
                assert wait_until(lambda: app.state() == shown, 10), (app.state(), shown)
                assert shown != present
                page.click('button[data-command="returnToPresent"]')
                page.wait_for_selector("#result:has-text('present')", timeout=10_000)
                assert wait_until(lambda: app.state() == present, 10)

            def a_dispatched_action_is_processed_with_its_cause():
                action = page.evaluate("E[0][9]")
                before = page.evaluate("E.length")
                page.fill("#dispatch-text", action)
                page.click('button[data-command="dispatch"]')
                page.wait_for_selector("#result:has-text('dispatch: done')", timeout=10_000)
                page.wait_for_function(f"E.length > {before} && E[E.length - 1][4] === 'inspector'", timeout=10_000)

            def undecodable_json_shows_its_error():
                page.fill("#dispatch-text", '{"noSuchAction":{"at":1}}')
                page.click('button[data-command="dispatch"]')
                page.wait_for_selector("#result.error:has-text('undecodable')", timeout=10_000)

            def eight_app_processes_at_once():
                eight = [App(app_executable, port, token, "--name", f"E2E-{k}", "--count", "100", "--stay")
                         for k in range(8)]
                apps.extend(eight)
                for other in eight:
                    other.expect("connected")
                ids = [other.instance for other in eight]
                page.wait_for_function(
                    "(ids) => ids.every((id) => live.instances.some((i) => i.id === id && i.connected && i.entries >= 100))",
                    arg=ids, timeout=30_000)

            for body in [entries_appear_live, jump_in_the_page_changes_the_apps_state,
                         a_dispatched_action_is_processed_with_its_cause, undecodable_json_shows_its_error,
                         eight_app_processes_at_once]:
                test(body.__name__, body)
            browser.close()

        def kill_9_mid_stream_then_restart_resumes_with_no_duplicate_and_no_hole():
            nonlocal inspector
            streaming = App(app_executable, port, token, "--name", "Streaming", "--count", "20000", "--rate", "4000",
                            "--stay")
            apps.append(streaming)
            streaming.expect("connected")
            # Mid-stream: killed once the inspector has acknowledged a part of the 20,000 entries
            # (two numbered lines each), not all of them.
            assert wait_until(lambda: int(streaming.ask("flushed?", r"flushed (\d+)").group(1)) >= 4_000, 60)
            inspector.send_signal(signal.SIGKILL)
            inspector.wait()
            restarted = subprocess.Popen([inspector_executable, "--data", data, "--port", str(port), "--token", token],
                                         stdout=subprocess.PIPE, text=True)
            restarted.stdout.readline()
            inspector = restarted
            export = Path(data) / "app-export.json"

            def both():
                streaming.ask("flushed?", r"flushed (\d+)")
                streaming.ask(f"export {export}", "exported")
                own = json.loads(export.read_text())["entries"]
                address = f"http://127.0.0.1:{port}/sessions/{streaming.instance}/journal.json?token={token}"
                with urllib.request.urlopen(address) as response:
                    saved = json.loads(response.read())["entries"]
                return own, saved

            # Done once the app has streamed its 20,000 entries and the inspector has them all.
            assert wait_until(lambda: (lambda o, s: len(o) >= 20000 and len(s) == len(o))(*both()), 120)
            own, saved = both()
            assert [e["seq"] for e in saved] == [e["seq"] for e in own], (len(saved), len(own))
            keys = ("index", "seq", "type", "action", "cause", "context", "outcome")
            assert [{k: e.get(k) for k in keys} for e in saved] == [{k: e.get(k) for k in keys} for e in own]

        def a_secret_is_in_no_frame_and_no_saved_file():
            assert frames, "the page received frames"
            assert not any(SECRET in frame for frame in frames)
            for path in Path(data).rglob("*.ndjson"):
                assert SECRET not in path.read_text(), path

        test(kill_9_mid_stream_then_restart_resumes_with_no_duplicate_and_no_hole.__name__,
             kill_9_mid_stream_then_restart_resumes_with_no_duplicate_and_no_hole)
        test(a_secret_is_in_no_frame_and_no_saved_file.__name__, a_secret_is_in_no_frame_and_no_saved_file)
    finally:
        for app in apps:
            app.quit()
        inspector.kill()
        shutil.rmtree(data, ignore_errors=True)
    failed = sum(1 for _, error in results if error)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
