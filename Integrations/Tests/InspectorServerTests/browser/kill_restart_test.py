#!/usr/bin/env python3
"""The inspector executable killed with SIGKILL mid-stream and restarted: the app resumes with no
duplicate and no hole (docs/formats/live-link.md, "Sessions on disk").

    python3 kill_restart_test.py INSPECTOR_EXECUTABLE

A stand-in app (live_client.py's lines) streams 20,000 entries with their state lines (40,000
numbered lines), keeping every line until acknowledged as the real app does; the inspector is
killed while it streams, started again on the same port and data folder, and the app reconnects
with `next` = its last acknowledged line + 1 and sends from the welcome's `resumeAfter` + 1. Then
`link.ndjson` holds lines 1 to 40,000 once each and the session exports as Journal JSON with
entries 1 to 20,000. Ends with "N passed, N failed".
"""
import asyncio
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).parent))
from live_client import META, entry_line, state_line  # noqa: E402

ENTRIES = 20_000
TOKEN = "kill-restart-token"


def numbered(n):
    """Numbered line n (from 1): entry k is line 2k+1, its state line 2k+2."""
    index = (n - 1) // 2
    return entry_line(index, index + 1) if n % 2 == 1 else state_line(index, index + 1, full=index % 256 == 0)


def start(executable, data, port=0):
    process = subprocess.Popen([executable, "--data", data, "--token", TOKEN, "--port", str(port)],
                               stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
    process.stdout.readline()
    return process, port


WINDOW = 2_000  # lines the stand-in app sends beyond the last one acknowledged


class Closed(Exception):
    """The connection ended while waiting for an acknowledgement."""


def fresh(state):
    """An event of the running loop for `acknowledged` to wait on, and the connection not closed."""
    state["changed"], state["closed"] = asyncio.Event(), False


async def acknowledged(state, n, timeout):
    """Waits until line n is acknowledged (woken by each acknowledgement), within `timeout` seconds;
    raises Closed when the connection ends first."""
    async def reached():
        while state["acked"] < n:
            if state["closed"]:
                raise Closed()
            state["changed"].clear()
            await state["changed"].wait()
    await asyncio.wait_for(reached(), timeout)


async def stream(port, state, stop_after=None):
    """Connects, resumes, sends the rest in batches of 200 lines; returns when all are acknowledged
    or when the connection drops. The caller gives `state` a fresh event first (`fresh`)."""
    hello = {"hello": {"protocol": "chronicle.live", "version": 1,
                       "instance": {"id": "killed", "name": "Killed", "host": "h", "pid": 1, "store": "main"},
                       "meta": META, "allows": [], "next": state["acked"] + 1}}
    async with websockets.connect(f"ws://127.0.0.1:{port}/live/app", ping_interval=None,
                                  additional_headers={"Authorization": f"Bearer {TOKEN}"}) as socket:
        await socket.send(json.dumps(hello) + "\n")
        welcome = json.loads(await socket.recv())["welcome"]
        assert welcome["resumeAfter"] >= state["acked"], welcome
        state["acked"] = welcome["resumeAfter"]

        async def acks():
            try:
                async for message in socket:
                    for text in message.splitlines():
                        line = json.loads(text)
                        if "ack" in line:
                            state["acked"] = line["ack"]["n"]
                            state["changed"].set()
            except websockets.ConnectionClosed:
                pass
            state["closed"] = True
            state["changed"].set()

        reader = asyncio.create_task(acks())
        n = state["acked"] + 1
        # Lines from the welcome's resumeAfter + 1: what the app kept unacknowledged, then new ones.
        # At most WINDOW lines ahead of the acknowledgements, so that the inspector is killed
        # mid-stream whatever the machine's speed.
        try:
            while n <= 2 * ENTRIES:
                await acknowledged(state, n - WINDOW, 60)
                batch = [numbered(k) for k in range(n, min(n + 200, 2 * ENTRIES + 1))]
                await socket.send("\n".join(batch) + "\n")
                n += len(batch)
            await acknowledged(state, 2 * ENTRIES, 60)
        except Closed:
            pass
        reader.cancel()


def main():
    executable = sys.argv[1]
    data = tempfile.mkdtemp(prefix="inspector-kill-")
    state = {"acked": 0}
    failures = 0
    inspector, port = start(executable, data)
    try:
        async def first():
            fresh(state)
            task = asyncio.create_task(stream(port, state))
            await acknowledged(state, 4_000, 60)
            inspector.send_signal(signal.SIGKILL)
            try:
                await asyncio.wait_for(task, 10)
            except Exception:  # noqa: BLE001 - the connection drops with the inspector
                pass

        asyncio.run(first())
        inspector.wait()
        killed_at = state["acked"]
        inspector, port = start(executable, data, port)
        async def second():
            fresh(state)
            await stream(port, state)

        asyncio.run(second())
        link = (Path(data) / "killed" / "link.ndjson").read_text().splitlines()
        numbers = [json.loads(line)["n"] for line in link]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/sessions/killed/journal.json?token={TOKEN}") as r:
            entries = json.loads(r.read())["entries"]
        checks = [
            ("the inspector was killed mid-stream", 0 < killed_at < 2 * ENTRIES),
            ("link.ndjson holds every line once, in order", numbers == list(range(1, 2 * ENTRIES + 1))),
            ("the session exports every entry once, in order", [e["seq"] for e in entries] == list(range(1, ENTRIES + 1))),
        ]
        for name, ok in checks:
            print(("PASS " if ok else "FAIL ") + name, flush=True)
            failures += 0 if ok else 1
        print(f"killed after line {killed_at} was acknowledged")
    finally:
        inspector.kill()
        shutil.rmtree(data, ignore_errors=True)
    print(f"{3 - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
