#!/usr/bin/env python3
"""Checks that Docs/architecture.md's module graph is the one Package.swift declares.

The table under "## Module graph" has one row per module (every target but tests and
benchmarks): its name, the modules and packages it depends on (exactly Package.swift's list), and
whether it is pure: no C library (a system-library target under CNFC/) anywhere below it; glibc,
which every program has, does not count: a system-library module whose module map links nothing
and that is named in GLIBC_ONLY (glibc's functions Swift's Glibc module leaves out) is glibc. A row
that is missing, extra, or differs from Package.swift fails, naming what to change; so does a
module the table calls pure with a C library below it, or one it calls impure with none.

Usage: scripts/check-modules.py [--print]
  --print  print the table as Package.swift says it should be (to paste into the document)
Exit status: 0 agree; 1 they differ; 2 Package.swift could not be read.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "Docs" / "architecture.md"
HEADING = "### Module graph"
# System-library modules that are glibc itself (header-only: the module map has no `link`).
GLIBC_ONLY = {"CMalloc", "CIntl"}


def package_graph():
    try:
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"check-modules: swift package dump-package failed: {error}", file=sys.stderr)
        sys.exit(2)
    targets = json.loads(dump)["targets"]
    kinds = {t["name"]: t["type"] for t in targets}
    for t in targets:
        if t["name"] in GLIBC_ONLY:
            modulemap = (ROOT / t["path"] / "module.modulemap").read_text(encoding="utf-8")
            if t.get("pkgConfig") or re.search(r"^\s*link\b", modulemap, re.M):
                print(f"check-modules: {t['name']} links a library: it is not glibc only (GLIBC_ONLY)", file=sys.stderr)
                sys.exit(1)
            kinds[t["name"]] = "glibc"
    graph = {}
    for t in targets:
        if t["type"] == "test" or (t.get("path") or "").startswith("Benchmarks/"):
            continue
        modules, packages = [], []
        for dependency in t["dependencies"]:
            if "byName" in dependency:
                modules.append(dependency["byName"][0])
            elif "target" in dependency:
                modules.append(dependency["target"][0])
            elif "product" in dependency:
                product, package = dependency["product"][0], dependency["product"][1]
                packages.append(f"{package}:{product}")
        graph[t["name"]] = (t["type"], modules, packages)
    return graph, kinds


def pure(name, graph, kinds, seen=None):
    """Whether no system-library (C) target lies at or below `name`."""
    seen = set() if seen is None else seen
    if name in seen:
        return True
    seen.add(name)
    if kinds.get(name) == "system":
        return False
    if kinds.get(name) == "glibc":
        return True
    return all(pure(m, graph, kinds, seen) for m in graph.get(name, ("", [], []))[1])


def expected_rows(graph, kinds):
    rows = {}
    for name, (kind, modules, packages) in graph.items():
        depends = ", ".join(f"`{m}`" for m in sorted(modules)) or "—"
        external = ", ".join(f"`{p}`" for p in sorted(packages)) or "—"
        rows[name] = (kind, depends, external, "yes" if pure(name, graph, kinds) else "no")
    return rows


def table(rows):
    lines = ["| module | kind | depends on | packages | pure |", "|---|---|---|---|---|"]
    for name in rows:
        kind, depends, external, is_pure = rows[name]
        lines.append(f"| `{name}` | {kind} | {depends} | {external} | {is_pure} |")
    return "\n".join(lines)


def documented_rows():
    text = DOC.read_text(encoding="utf-8")
    if HEADING not in text:
        return None
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not re.fullmatch(r"`[^`]+`", cells[0]):
            continue
        rows[cells[0].strip("`")] = tuple(cells[1:])
    return rows


def main():
    graph, kinds = package_graph()
    want = expected_rows(graph, kinds)
    if sys.argv[1:] == ["--print"]:
        print(table(want))
        return 0
    have = documented_rows()
    if have is None:
        print(f"check-modules: {DOC.relative_to(ROOT)} has no '{HEADING}' section", file=sys.stderr)
        return 1
    problems = []
    for name in want.keys() - have.keys():
        problems.append(f"`{name}` is in Package.swift but not in the table: add {want[name]}")
    for name in have.keys() - want.keys():
        problems.append(f"`{name}` is in the table but not in Package.swift: remove its row")
    columns = ("kind", "depends on", "packages", "pure")
    for name in sorted(want.keys() & have.keys()):
        for column, wanted, documented in zip(columns, want[name], have[name]):
            if wanted != documented:
                problems.append(f"`{name}`: {column} is '{documented}' in the table, Package.swift says '{wanted}'")
    for problem in problems:
        print(f"check-modules: {problem}", file=sys.stderr)
    if problems:
        print("check-modules: `scripts/check-modules.py --print` prints the table as Package.swift has it", file=sys.stderr)
        return 1
    print(f"check-modules: the module graph in {DOC.relative_to(ROOT)} is Package.swift's ({len(want)} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
