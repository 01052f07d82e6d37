#!/usr/bin/env python3
"""Every relative link in the project's Markdown resolves, offline: the file (or folder) exists,
and a `#anchor` names a heading of the Markdown file it points to (GitHub's slugs). Links to the
web (http, https, mailto) and DocC's own links (<doc:…>, ``Symbol``) are not checked here; DocC
checks its links itself (.ci/docc.sh).

A link to a file that another branch adds is listed in .ci/pending-links.txt (one target per
line, `#` comments): it is reported, not failed, until it resolves; then the line should go."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
files = [root / name for name in ("README.md", "BENCHMARKS.md", "CHANGELOG.md")]
files += sorted((root / "Benchmarks").glob("*.md")) + sorted((root / "docs").rglob("*.md"))
files += sorted((root / "Sources").glob("*/Documentation.docc/*.md"))
pending = set()
pending_file = root / ".ci" / "pending-links.txt"
if pending_file.exists():
    for line in pending_file.read_text().splitlines():
        line = line.split("#", 1)[0].strip() if not line.startswith("#") else ""
        if line:
            pending.add(line)

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text):
    """The text outside fenced code blocks and inline code spans."""
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"`", "", heading.strip().lower())
    heading = re.sub(r"[^\w\- ]", "", heading)
    return heading.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for line in prose(path.read_text()).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*$", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


broken, waiting, links = [], [], 0
for path in files:
    if not path.exists():
        continue
    for target in LINK.findall(prose(path.read_text())):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:, doc:
            continue
        links += 1
        location, _, anchor = target.partition("#")
        resolved = (path.parent / location).resolve() if location else path
        shown = f"{path.relative_to(root)}: {target}"
        relative = str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(resolved)
        if relative in pending:
            (waiting if not resolved.exists() else broken).append(
                shown + ("" if not resolved.exists() else " (resolves now: drop it from .ci/pending-links.txt)"))
            continue
        if not resolved.exists():
            broken.append(shown + " (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(shown + f" (no heading #{anchor} in {relative})")

for line in waiting:
    print("pending (another branch adds it):", line)
for line in broken:
    print("broken link:", line)
if broken:
    sys.exit(1)
print(f"links: {links} relative links in {len(files)} files, all resolve")
