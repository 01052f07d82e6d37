#!/usr/bin/env python3
"""Fails when a target imports one of the package's modules without declaring it in Package.swift.

SwiftPM builds such a target as long as the module is reached through another dependency, so
nothing else catches it; a user who depends on the target alone may then not build.
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(__file__), "..")
package = open(os.path.join(root, "Package.swift")).read()
targets = re.finditer(
    r'\.(?:target|testTarget|executableTarget)\(\s*name:\s*"([^"]+)"'
    r'(?:,\s*dependencies:\s*\[([^\]]*)\])?[^)]*?path:\s*"([^"]+)"',
    package, re.S)
modules = set(re.findall(r'\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"', package))
failures = []
for target in targets:
    name, declared, path = target.group(1), set(re.findall(r'"([^"]+)"', target.group(2) or "")), target.group(3)
    for folder, _, files in os.walk(os.path.join(root, path)):
        for file in files:
            if not file.endswith(".swift"):
                continue
            for number, line in enumerate(open(os.path.join(folder, file)), 1):
                found = re.match(r"\s*(?:@_exported |@testable |package )?import (\w+)", line)
                if found and found.group(1) in modules and found.group(1) != name and found.group(1) not in declared:
                    failures.append(f"{os.path.join(folder, file)}:{number}: {name} imports {found.group(1)} "
                                    "without declaring it")
for failure in failures:
    print(os.path.relpath(failure, root) if failure.startswith(root) else failure)
if failures:
    sys.exit(1)
print(f"every import of the package's modules is declared ({len(modules)} modules)")
