"""A stand-in app speaking the live link (docs/formats/live-link.md), for the browser tests and
the benchmark: it sends a hello, entries with their states, and answers commands as the test
says. Not the real app side (ChronicleLiveLink); the end-to-end test drives that one."""
import asyncio
import json

import websockets

META = {"state": {"type": "Counter.State", "encodable": True},
        "action": {"type": "Counter.Action", "encodable": True},
        "origin": {"wallTime": 1795325325792032000, "iso8601": "2026-11-22T05:28:45.792Z"},
        "checkpointInterval": 256}


def entry_line(index, count):
    entry = {"index": index, "seq": index + 1, "time": 1000 * (index + 1), "wallTime": 1795325325792032000 + index,
             "context": "CounterScreen", "cause": {"kind": "user"}, "type": "add",
             "action": {"add": {"_0": 1}}, "replayable": True, "outcome": "reduced",
             "durations": {"chain": 1500, "reducer": 900, "reducerOffset": 100}}
    if index == 0:
        entry["checkpoint"] = {"kind": "resync", "state": {"count": 0}}
    return json.dumps({"entry": entry}, separators=(",", ":"))


def state_line(index, count, full=False):
    if full:
        return json.dumps({"state": {"index": index, "full": {"count": count}}}, separators=(",", ":"))
    return json.dumps({"state": {"index": index, "patch": [[["count"], count]]}}, separators=(",", ":"))


class LiveApp:
    def __init__(self, url, token, instance="app-1", name="Counter", allows=("jump", "undo", "dispatch")):
        self.url, self.token, self.instance, self.name, self.allows = url, token, instance, name, list(allows)
        self.commands = []
        self.acked = 0
        self.next = 1
        self.sent = 0

    async def connect(self):
        self.socket = await websockets.connect(self.url, additional_headers={"Authorization": f"Bearer {self.token}"}, ping_interval=None,
                                               max_size=None)
        hello = {"hello": {"protocol": "chronicle.live", "version": 1,
                           "instance": {"id": self.instance, "name": self.name, "host": "test-host", "pid": 4242,
                                        "store": "main"},
                           "meta": META, "allows": self.allows, "next": self.next}}
        await self.socket.send(json.dumps(hello) + "\n")
        welcome = json.loads(await self.socket.recv())
        self.resume_after = welcome["welcome"]["resumeAfter"]
        return welcome

    async def send_entries(self, count, batch=500, full_every=256):
        """Sends `count` entries, each followed by its state line."""
        lines = []
        for _ in range(count):
            index = self.sent
            lines.append(entry_line(index, index + 1))
            lines.append(state_line(index, index + 1, full=index % full_every == 0))
            self.sent += 1
            if len(lines) >= 2 * batch:
                await self.socket.send("\n".join(lines) + "\n")
                self.next += len(lines)
                lines = []
        if lines:
            await self.socket.send("\n".join(lines) + "\n")
            self.next += len(lines)

    async def read(self, answer=None):
        """Reads what the inspector sends; answers commands with `answer(command)` (a result body)."""
        async for message in self.socket:
            for text in message.splitlines():
                line = json.loads(text)
                if "ack" in line:
                    self.acked = line["ack"]["n"]
                elif "command" in line:
                    command = line["command"]
                    self.commands.append(command)
                    body = answer(command) if answer else {"ok": True, "position": None}
                    await self.socket.send(json.dumps({"result": {"id": command["id"], **body}}) + "\n")
