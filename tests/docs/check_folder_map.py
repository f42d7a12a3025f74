#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""docs/design.md's map of the folders matches the tree: every folder it
names exists, and every folder of ns3-bindings/ is named in it, so a folder
added or moved without the map being updated fails here.

    check_folder_map.py

Ends with "folder-map: N passed, M failed"; exit status 1 if any failed.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DESIGN = os.path.join(ROOT, "docs", "design.md")
# A folder as the map writes it: the first word of a line, ending in "/".
FOLDER = re.compile(r"^( *)([A-Za-z0-9_./-]+/)(?:, ([A-Za-z0-9_./-]+/))?(?:\s|$)")


def mapped_folders(text):
    """The folders the map names, as paths from the repository's root."""
    m = re.search(r"<!-- folder-map -->\n```\n(.*?)```\n<!-- /folder-map -->", text, re.S)
    if not m:
        return None
    folders = []
    parent = ""
    for line in m.group(1).splitlines():
        f = FOLDER.match(line)
        if not f:
            continue
        names = [n for n in (f.group(2), f.group(3)) if n]
        if not f.group(1):  # a top-level folder: the parent of what follows
            parent = names[0]
            folders += names
        else:
            folders += [parent + n for n in names]
    return [n.rstrip("/") for n in folders]


def main():
    with open(DESIGN) as f:
        folders = mapped_folders(f.read())
    passed = failed = 0

    def result(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    result(folders, "docs/design.md has no <!-- folder-map --> block")
    folders = folders or []
    for name in folders:
        result(os.path.isdir(os.path.join(ROOT, name)),
               "docs/design.md names %s/, which is not a folder" % name)
    top = os.path.join(ROOT, "ns3-bindings")
    for dirpath, dirnames, _ in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for d in dirnames:
            rel = os.path.relpath(os.path.join(dirpath, d), ROOT)
            result(rel in folders, "%s/ is not in docs/design.md's map of the folders" % rel)
    print("folder-map: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
