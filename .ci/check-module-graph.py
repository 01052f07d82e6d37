#!/usr/bin/env python3
"""Fails when the README's module table and Package.swift disagree.

The README's "Modules" table lists every library product and, for each, the products its target
depends on. A product added, removed or rewired in Package.swift without the README (or the other
way round) fails here, so the graph users read is the one they build.
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(__file__), "..")
package = open(os.path.join(root, "Package.swift")).read()
readme = open(os.path.join(root, "README.md")).read()

products = dict(re.findall(r'\.library\(\s*name:\s*"([^"]+)",\s*targets:\s*\["([^"]+)"\]', package))
dependencies = {}
for match in re.finditer(
        r'\.target\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?', package, re.S):
    dependencies[match.group(1)] = set(re.findall(r'"([^"]+)"', match.group(2) or ""))
product_of_target = {target: product for product, target in products.items()}
declared = {
    product: {product_of_target[d] for d in dependencies.get(target, set()) if d in product_of_target}
    for product, target in products.items()
}

section = re.search(r"^## Modules\n(.*?)(?=^## )", readme, re.S | re.M)
if not section:
    sys.exit("README.md has no '## Modules' section")
documented = {}
for row in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", section.group(1), re.M):
    documented[row.group(1)] = set(re.findall(r"`(\w+)`", row.group(2)))

failures = []
for product in sorted(set(declared) | set(documented)):
    if product not in documented:
        failures.append(f"{product}: a library product in Package.swift, missing from the README's table")
    elif product not in declared:
        failures.append(f"{product}: in the README's table, not a library product in Package.swift")
    elif declared[product] != documented[product]:
        failures.append(
            f"{product}: Package.swift depends on {sorted(declared[product])}, "
            f"the README says {sorted(documented[product])}")
for failure in failures:
    print(failure)
if failures:
    sys.exit(1)
print(f"the README's module table matches Package.swift ({len(declared)} products)")
