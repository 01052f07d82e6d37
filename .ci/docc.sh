#!/usr/bin/env bash
# Builds the DocC documentation of every library product with the toolchain's own `docc` (no
# plugin): symbol graphs from `swift package dump-symbol-graph`, then `docc convert` per module,
# dependencies first, each with the archives of the modules it depends on so that links written
# ``/OtherModule/Symbol`` resolve. Fails on any warning.
#
# The modules come from Package.swift (`swift package dump-package`): a module added later is
# covered without editing this script. Its catalog is `<target path>/Documentation.docc`; a
# module without one is converted from its symbol docs alone, and must still give no warning.
#
#   .ci/docc.sh [output directory]   # default: .build-docc/archives, one <Module>.doccarchive each
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docc
out=${1:-$scratch/archives}

# One line per library module, each after the library modules it depends on:
#   <module> <target path> <library modules it depends on, directly or not, comma-separated>
modules=$(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
libraries = {name for product in package["products"] if "library" in product["type"]
             for name in product["targets"]}

def direct(name):
    for dependency in targets[name]["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency and dependency[kind][0] in targets:
                yield dependency[kind][0]

def closure(name, seen):
    for dependency in direct(name):
        if dependency not in seen:
            seen.add(dependency)
            closure(dependency, seen)
    return seen

ordered = []
def visit(name):
    if name in ordered: return
    for dependency in direct(name): visit(dependency)
    if name in libraries: ordered.append(name)
for name in sorted(libraries): visit(name)
for name in ordered:
    path = targets[name].get("path") or "Sources/" + name
    dependencies = [d for d in ordered if d in closure(name, set())]
    print(name, path, ",".join(dependencies) or "-")
')

# Its own scratch directory: the symbol graph flags would otherwise invalidate the main build.
# `dump-symbol-graph` also tries the test modules, which it cannot load, and then exits with an
# error: what counts is that every library module's graph was written by this run.
rm -rf "$scratch"/*/symbolgraph
log=$(mktemp)
swift package --scratch-path "$scratch" dump-symbol-graph --emit-extension-block-symbols > "$log" 2>&1 || true
graphs=$(sed -n 's/^Files written to //p' "$log")
while read -r module _; do
  if [ -z "$graphs" ] || [ ! -f "$graphs/$module.symbols.json" ]; then
    grep -E "error|warning" "$log" || cat "$log"
    echo "docc: no symbol graph for $module"
    exit 1
  fi
done <<< "$modules"

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
failed=()
while read -r module path dependencies; do
  mkdir -p "$work/$module"
  # The module's own graph and its extensions of other modules' types, nothing else.
  cp "$graphs/$module.symbols.json" "$work/$module/"
  cp "$graphs/$module"@*.symbols.json "$work/$module/" 2> /dev/null || true
  arguments=(
    --additional-symbol-graph-dir "$work/$module"
    --fallback-display-name "$module" --fallback-bundle-identifier "org.chronicle.$module"
    --fallback-default-module-kind "Swift Library"
    --output-path "$out/$module.doccarchive"
    --enable-experimental-external-link-support --warnings-as-errors
  )
  blocked=""
  if [ "$dependencies" != "-" ]; then
    for dependency in ${dependencies//,/ }; do
      arguments+=(--dependency "$out/$dependency.doccarchive")
      [ -d "$out/$dependency.doccarchive" ] || blocked="$dependency"
    done
  fi
  if [ -n "$blocked" ]; then
    # Its links into the dependency could not resolve: its own warnings would be noise.
    failed+=("$module (not converted: $blocked failed)")
    continue
  fi
  catalog="$path/Documentation.docc"
  if [ -d "$catalog" ]; then
    arguments=("$catalog" "${arguments[@]}")
    what="$catalog"
  else
    what="$module's symbol docs alone ($path has no Documentation.docc)"
  fi
  printf '==> %s: %s\n' "$module" "$what"
  if ! docc convert "${arguments[@]}" > "$work/$module.log" 2>&1 || grep -q "warning:" "$work/$module.log"; then
    grep -E "warning:|error:" "$work/$module.log" || cat "$work/$module.log"
    if [ -d "$catalog" ]; then
      failed+=("$module")
    else
      failed+=("$module (no catalog: add $catalog, or fix its symbol docs)")
    fi
  fi
done <<< "$modules"

if [ ${#failed[@]} -ne 0 ]; then
  printf 'docc: warnings in %s\n' "${failed[@]}"
  exit 1
fi
echo "docc: every module converted with no warning; archives in $out"
