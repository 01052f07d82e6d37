#!/usr/bin/env python3
"""Docs are claims: every ```swift block in README.md must appear verbatim (modulo indentation
and blank lines) in a compiled file under Examples/ or Tests/, or under Integrations/Examples/ or
Integrations/Tests/ (the separate package of adapters), so the README cannot drift from code that
builds."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "README.md").read_text()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)

def normalize(text):
    return [line.strip() for line in text.splitlines() if line.strip()]

corpus = []
for folder in ("Examples", "Tests", "Integrations/Examples", "Integrations/Tests"):
    for path in (root / folder).rglob("*.swift"):
        corpus.append((path, normalize(path.read_text())))

def contains(haystack, needle):
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))

missing = 0
for index, block in enumerate(blocks, 1):
    lines = normalize(block)
    if not lines:
        continue
    if not any(contains(text, lines) for _, text in corpus):
        missing += 1
        print(f"README.md swift block {index} is not in any file under [Integrations/]Examples/ or Tests/:")
        print("    " + "\n    ".join(lines[:6]))
if missing:
    sys.exit(1)
print(f"README: {len(blocks)} swift blocks, all found in compiled sources")
