#!/usr/bin/env python3
# The journal Benchmarks/HISTORY.md times the `chronicle` tool on ("The CLI (issue 12)"):
#   python3 Benchmarks/cli-journal.py FILE [ENTRIES]
# A Journal JSON with every state (25,000 entries: 30.6 MB), shaped like the demo's: a todo
# list of 15 to 25 items, each action adding, toggling or removing one.
import json, sys
n = int(sys.argv[2]) if len(sys.argv) > 2 else 25000
todos, next_id, t, wall = [], 1, 1_000_000, 1795510413931665920
def state():
    return {"todos": [dict(x) for x in todos], "isLoading": False, "stopwatch": 0, "isRunning": False,
            "query": "", "matches": [], "user": "ann", "password": "<redacted>", "isLoggedIn": True}
base = state()
entries = []
for i in range(n):
    k = i % 3
    if k == 0 or len(todos) < 15:
        action, name = {"add": {"_0": f"Todo number {next_id}"}}, "add"
        todos.append({"id": next_id, "title": f"Todo number {next_id}", "done": False}); next_id += 1
    elif k == 1:
        j = (i * 7) % len(todos); todos[j]["done"] = not todos[j]["done"]
        action, name = {"toggle": {"id": todos[j]["id"]}}, "toggle"
    else:
        gone = todos.pop(0); action, name = {"remove": {"id": gone["id"]}}, "remove"
    if len(todos) > 25: todos.pop(0)
    t += 10_000 + (i % 97) * 13; wall += 10_000
    entries.append({"index": i, "seq": i + 1, "time": t, "wallTime": wall,
        "context": ["TodoList", "LoginForm", "Search"][i % 3], "cause": {"kind": "user"},
        "type": name, "action": action, "replayable": True, "outcome": "reduced",
        "durations": {"chain": 5000 + i % 1000, "reducer": 1200 + i % 500, "reducerOffset": 300},
        "state": state()})
doc = {"format": "chronicle.journal", "version": 1,
    "meta": {"state": {"type": "Demo.DemoApp.State", "shape": "todos: Array<Todo>, isLoading: Bool, stopwatch: Int, isRunning: Bool, query: String, matches: Array<String>, user: String, _password: Redacted<String>, isLoggedIn: Bool", "encodable": True},
             "action": {"type": "Demo.DemoApp.Action", "encodable": True},
             "origin": {"wallTime": 1795510413931665920, "iso8601": "2026-11-24T08:53:33.931Z"},
             "checkpointInterval": 4, "firstIndex": 0, "entryCount": n, "effectCount": 0},
    "baseState": base, "entries": entries, "effects": []}
with open(sys.argv[1], "w") as f:
    json.dump(doc, f, separators=(",", ":"))
