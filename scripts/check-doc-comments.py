#!/usr/bin/env python3
"""Fails when a public declaration of Darkroom's modules has no `///` doc comment.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes
(the same data DocC reads), so it sees what the documentation would show: a symbol counts as
documented when it has its own comment or inherits one (a protocol requirement's comment on
its implementations, as DocC shows it); synthesized members (Equatable's `!=`, …) are skipped.

Usage: scripts/check-doc-comments.py [SYMBOLGRAPH_FOLDER]   (prints `file:line: kind name`)
"""
import glob
import json
import os
import sys

MODULES = [
    "Darkroom", "DarkroomCore", "DarkroomConfig", "DarkroomFilters", "DarkroomCache", "DarkroomSources",
    "DarkroomCurl", "DarkroomJPEG", "DarkroomPNG", "DarkroomWebP", "DarkroomGD", "DarkroomBMP", "DarkroomTGA",
    "DarkroomMemcached", "DarkroomServer", "DarkroomCLI", "DarkroomTools", "DarkroomExampleFilters",
]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else default_folder()
    missing = []
    for module in MODULES:
        for path in glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(
            os.path.join(folder, f"{module}@*.symbols.json")
        ):
            missing += undocumented(json.load(open(path)))
    for line in sorted(set(missing)):
        print(line)
    if missing:
        print(f"{len(set(missing))} public declarations have no doc comment", file=sys.stderr)
        sys.exit(1)
    print("every public declaration has a doc comment")


def default_folder():
    found = glob.glob(".build/*/symbolgraph")
    if not found:
        sys.exit("no symbol graphs: run swift package dump-symbol-graph --minimum-access-level public")
    return found[0]


def undocumented(graph):
    inherited = {r["source"] for r in graph.get("relationships", []) if "sourceOrigin" in r}
    inherited |= {
        r["source"] for r in graph.get("relationships", [])
        if r["kind"] in ("defaultImplementationOf", "overrides")
    }
    result = []
    for symbol in graph.get("symbols", []):
        identifier = symbol["identifier"]["precise"]
        if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in identifier:
            continue
        if symbol.get("docComment", {}).get("lines") or identifier in inherited:
            continue
        location = symbol.get("location", {})
        uri = location.get("uri", "?").replace("file://", "")
        uri = os.path.relpath(uri) if uri.startswith("/") else uri
        line = location.get("position", {}).get("line", -1) + 1
        result.append(f"{uri}:{line}: {symbol['kind']['displayName'].lower()} {'.'.join(symbol['pathComponents'])}")
    return result


if __name__ == "__main__":
    main()
