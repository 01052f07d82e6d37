#!/usr/bin/env python3
"""Docs are claims: every ```swift block in README.md, in docs/ and in the DocC articles
(Sources/*/Documentation.docc) must appear verbatim (modulo indentation and blank lines) in a
compiled file under Examples/ or Tests/, or under Integrations/Examples/ or Integrations/Tests/
(the separate package of adapters), so the docs cannot drift from code that builds.

The articles in UNCHECKED show code that is not meant to compile as it stands (a reducer's bug
before its fix, a generated test with elisions, a force unwrap in a sketch): they are left out."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
UNCHECKED = {"Sources/Formats/Documentation.docc/ChronicleFormats.md",
             "Sources/Testing/Documentation.docc/FindingBugsByExploration.md",
             "Sources/Tracer/Documentation.docc/ChronicleTracer.md"}
documents = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
documents += [path for path in sorted(root.glob("Sources/*/Documentation.docc/*.md"))
              if str(path.relative_to(root)) not in UNCHECKED]
blocks = [(path.relative_to(root), block) for path in documents
          for block in re.findall(r"```swift\n(.*?)```", path.read_text(), re.S)]

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
for index, (path, block) in enumerate(blocks, 1):
    lines = normalize(block)
    if not lines:
        continue
    if not any(contains(text, lines) for _, text in corpus):
        missing += 1
        print(f"{path}: a swift block is not in any file under [Integrations/]Examples/ or Tests/:")
        print("    " + "\n    ".join(lines[:6]))
if missing:
    sys.exit(1)
print(f"snippets: {len(blocks)} swift blocks in {len(documents)} documents, all found in compiled sources")
