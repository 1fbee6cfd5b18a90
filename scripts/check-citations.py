#!/usr/bin/env python3
"""Every citation of the rules specification points at something that exists.

Run by ctest as `cli.rule_citations`:
    scripts/check-citations.py [ROOT]     (exit 1 and one line per broken citation when any)

docs/rules.md is the specification every preset is built from. Code and documents cite it by
section ("docs/rules.md §5.7", "rules.md §1–§2", "[rules.md](rules.md) §8") and by decision
("A-12", "A-13b"). A section exists when docs/rules.md has a heading that starts with its number
("## 5. The presets", "### 5.7 bell", "### 7b. ..."); a decision exists when a row of its tables
starts with the id ("| A-12 |"). Inside docs/rules.md itself a bare "§5.8" is a citation too.
The rules specification the project started from is not in the repository, so a citation of
"RULES.md" or "DESIGN.md" is broken by definition.

Files read: everything git tracks under src/, tests/, docs/, web/src/, web/test/, bench/,
scripts/, cmake/ and examples/, the top-level Markdown files and web/README.md (text files only).
"""

import os
import re
import subprocess
import sys

SECTION = r"\d+(?:\.\d+)?[a-z]?"
# "rules.md §5.7", "rules.md](rules.md) §8", "rules.md §1–§2", "rules.md §5.4 and §5.6".
# A citation may wrap onto the next line of a comment ("//", "#", " *").
CITE = re.compile(r"rules\.md(?:\]\([^)]*\))?,?(?:\s|//|#|\*)*((?:§\s?" + SECTION +
                  r"(?:\s*(?:–|-|,|and|or)\s*)?)+)")
SECTIONS_IN = re.compile(r"§\s?(" + SECTION + r")")
DECISION = re.compile(r"(?<![\w-])A-(\d+[a-z]?)(?![\w-])")
OUTSIDE = re.compile(r"\b(RULES|DESIGN)\.md\b")
HEADING = re.compile(r"^#{2,4}\s+(" + SECTION + r")\.?(?:\s|$)")
ROW = re.compile(r"^\|\s*A-(\d+[a-z]?)\s*\|")

ROOTS = ("src/", "tests/", "docs/", "web/src/", "web/test/", "web/README.md", "bench/",
         "scripts/", "cmake/", "examples/", "README.md", "CONTRIBUTING.md", "CMakeLists.txt",
         "Makefile")
# This check and its test, which cite broken sections on purpose.
EXCLUDE = {"scripts/check-citations.py", "tests/cli/rule_citations.sh"}


def spec(root):
    sections, decisions = set(), set()
    with open(os.path.join(root, "docs/rules.md"), encoding="utf-8") as f:
        for line in f:
            m = HEADING.match(line)
            if m:
                sections.add(m.group(1))
            m = ROW.match(line)
            if m:
                decisions.add(m.group(1))
    return sections, decisions


def files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        out = []
        for d, _, names in os.walk(root):
            out += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(p for p in out if p and p.startswith(ROOTS) and "node_modules" not in p)


def check(root):
    sections, decisions = spec(root)
    problems = []
    for rel in files(root):
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or rel in EXCLUDE:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except UnicodeDecodeError:
            continue  # images and other binary files
        in_spec = rel == "docs/rules.md"
        text = "\n".join(lines)
        # A citation may wrap: "[rules.md](rules.md)\n§3.2" cites §3.2 on the second line.
        for m in CITE.finditer(text):
            for s in SECTIONS_IN.finditer(m.group(1)):
                n = text.count("\n", 0, m.start(1) + s.start()) + 1
                if s.group(1) not in sections:
                    problems.append(f"{rel}:{n}: docs/rules.md has no section §{s.group(1)}")
        for n, line in enumerate(lines, 1):
            if in_spec:
                for s in SECTIONS_IN.findall(line):
                    if s not in sections:
                        problems.append(f"{rel}:{n}: docs/rules.md has no section §{s}")
            for d in DECISION.findall(line):
                if d not in decisions:
                    problems.append(f"{rel}:{n}: docs/rules.md has no decision A-{d}")
            m = OUTSIDE.search(line)
            if m:
                problems.append(f"{rel}:{n}: cites {m.group(0)}, which is not in the repository "
                                "(docs/rules.md, docs/architecture.md)")
    return list(dict.fromkeys(problems)), sections, decisions


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems, sections, decisions = check(root)
    for p in problems:
        print(p)
    if not sections or not decisions:
        print("docs/rules.md: no numbered sections or no decisions found")
        return 1
    if problems:
        return 1
    print(f"ok: every citation names one of the {len(sections)} sections and "
          f"{len(decisions)} decisions of docs/rules.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
