#!/usr/bin/env python3
"""Fails when a target's folder is not named after the target.

One rule for both packages (the library's and Integrations'): a target lives in a folder named
after it, without the `Chronicle` prefix every module name carries (`ChronicleStore` in
`Sources/Store`, `ChronicleLiveLinkTests` in `Tests/LiveLinkTests`). Two names keep the prefix
because nothing is left without it or SwiftPM's convention wants it: the umbrella `Chronicle`
(`Sources/Chronicle`) and the C module `CChronicleTicks`. Executables outside `Sources/` (the
examples, the test helpers) are named after their folder too.
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(__file__), "..")
failures = []
for package_dir in (".", "Integrations"):
    manifest = open(os.path.join(root, package_dir, "Package.swift")).read()
    for call in re.finditer(r'\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"', manifest):
        kind, name = call.group(1), call.group(2)
        # The target's own arguments, up to the next target declaration.
        following = re.search(r'\.(?:target|executableTarget|testTarget)\(', manifest[call.end():])
        arguments = manifest[call.end(): call.end() + following.start()] if following else manifest[call.end():]
        path = re.search(r'path:\s*"([^"]+)"', arguments)
        folder = path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name
        expected = name[len("Chronicle"):] if name.startswith("Chronicle") and name != "Chronicle" else name
        if os.path.basename(folder) != expected:
            failures.append(f"{package_dir}/Package.swift: target {name} lives in {folder}, expected a folder named {expected}")
        if not os.path.isdir(os.path.join(root, package_dir, folder)):
            failures.append(f"{package_dir}/Package.swift: target {name}'s folder {folder} does not exist")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every target's folder is named after it")
