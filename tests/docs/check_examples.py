#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Every complete C program in the docs (a ```c block with a main function)
is built against the build tree's libcc, run, and its standard output
compared, byte for byte, with the ```output block that follows it in the
same document, so an example and what the text says it prints cannot drift
from the code. A block after a line "<!-- part of: PATH -->" shows a piece
of the repository's file PATH (the worked plugin of
writing-an-algorithm.md): it must appear in that file verbatim. (The C++ program of ns3-bindings.md, fncc-flow.cc, is built
from the page by test-install.)

    check_examples.py BUILD WORKDIR [DOC.md ...]

Ends with "docs: N passed, M failed"; exit status 1 if any failed.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FENCE = re.compile(r"^```([A-Za-z0-9+_-]*)\n(.*?)^```\n", re.M | re.S)


def examples(path):
    """(line, code, expected output or None) for each C program of a doc."""
    with open(path) as f:
        text = f.read()
    blocks = [(text[:m.start()].count("\n") + 1, m.group(1), m.group(2))
              for m in FENCE.finditer(text)]
    found = []
    for i, (line, lang, body) in enumerate(blocks):
        if lang != "c" or not re.search(r"^int main\(", body, re.M):
            continue
        expected = None
        for _, lang2, body2 in blocks[i + 1:]:
            if lang2 == "c":
                break
            if lang2 == "output":
                expected = body2
                break
        found.append((line, body, expected))
    return found


PART_OF = re.compile(r"^<!-- part of: (\S+) -->\n```[A-Za-z0-9+_-]*\n(.*?)^```\n", re.M | re.S)


def parts(path):
    """(line, file, piece) for each block marked as a piece of a file."""
    with open(path) as f:
        text = f.read()
    return [(text[:m.start()].count("\n") + 2, m.group(1), m.group(2))
            for m in PART_OF.finditer(text)]


def check_part(doc, line, path, piece):
    where = "%s:%d" % (os.path.relpath(doc, ROOT), line)
    try:
        with open(os.path.join(ROOT, path)) as f:
            whole = f.read()
    except OSError as e:
        return "%s: part of %s: %s" % (where, path, e.strerror)
    if piece not in whole:
        return "%s: not a verbatim piece of %s" % (where, path)
    return None


def check(doc, line, code, expected, build, work):
    name = "%s-%d" % (os.path.relpath(doc, ROOT).replace(os.sep, "-").replace(".md", ""), line)
    where = "%s:%d" % (os.path.relpath(doc, ROOT), line)
    if expected is None:
        return "%s: a C program with no ```output block after it" % where
    src = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    with open(src, "w") as f:
        f.write(code)
    lib = os.path.join(build, "lib")
    cc = ["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I" + os.path.join(build, "include"),
          src, "-L" + lib, "-lcc", "-Wl,-rpath," + os.path.abspath(lib), "-o", exe]
    p = subprocess.run(cc, capture_output=True, text=True)
    if p.returncode != 0:
        return "%s: does not build: %s" % (where, (p.stderr.strip().splitlines() or ["?"])[0])
    p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        return "%s: exits %d: %s" % (where, p.returncode, p.stderr.strip())
    if p.stdout != expected:
        return "%s: prints\n%s\nwhere the doc says\n%s" % (where, p.stdout, expected)
    return None


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: check_examples.py BUILD WORKDIR [DOC.md ...]\n")
        return 2
    build, work = argv[0], argv[1]
    docs = argv[2:] or ([os.path.join(ROOT, "README.md")] +
                        sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) +
                        sorted(glob.glob(os.path.join(ROOT, "docs", "algorithms", "*.md"))))
    os.makedirs(work, exist_ok=True)
    passed = failed = 0
    for doc in docs:
        for line, path, piece in parts(doc):
            err = check_part(doc, line, path, piece)
            if err:
                failed += 1
                print("FAIL " + err)
            else:
                passed += 1
                print("ok   %s:%d (part of %s)" % (os.path.relpath(doc, ROOT), line, path))
        for line, code, expected in examples(doc):
            err = check(doc, line, code, expected, build, work)
            if err:
                failed += 1
                print("FAIL " + err)
            else:
                passed += 1
                print("ok   %s:%d" % (os.path.relpath(doc, ROOT), line))
    if passed + failed == 0:
        print("FAIL no C program found in the docs")
        failed = 1
    print("docs: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
