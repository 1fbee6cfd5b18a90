#!/usr/bin/env python3
"""The house rule for src/ (CONTRIBUTING.md, "House rules"): no file over 400 lines, no
function over 80 lines.

The C++ twin of web/scripts/check-size.mjs, run by ctest as `cli.check_size`:
    scripts/check-size.py [SRC_DIR]     (exit 1 and one line per breach when any)

A function is measured from the first line of its definition (template header and return type
included) to the line of its closing brace. Every function body counts: free functions, member
functions defined in a class or outside it, constructors (their initialiser list included) and
lambdas, nested ones too (a lambda's lines count for the function around it as well). Comments,
string literals (raw ones included) and preprocessor lines are blanked out before the code is
read, so that a brace inside them counts for nothing.

Data tables are excepted by name in DATA_TABLES below (and only there): a file that is a table of
data, not code, may be longer. docs/architecture.md lists them too.
"""

import os
import re
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80

# The data tables that may be longer, each with the reason: "path" for a whole file, or
# "path:function" for one function (and the lambdas inside it). Paths are relative to src/.
DATA_TABLES = {
    "rules/presets.cpp:make_presets": "the eleven presets of docs/rules.md §6, one block of fields each",
    "rules/rule_set.cpp:params": "the table of rule-set parameters: name, values, getter, setter",
}

CONTROL = {
    "if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
    "noexcept", "requires", "static_assert", "throw", "co_return", "co_await", "co_yield",
    "new", "delete", "alignas",
}
# Words that may follow a function's parameter list before its body.
SPECIFIERS = {"const", "override", "final", "noexcept", "mutable", "constexpr", "volatile", "&",
              "&&", "try"}
TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|::|->|&&|\d[\w.']*|\S")


def blank(text):
    """The text with comments, literals and preprocessor lines turned into spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('"', i + 1) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1  # a ' after a digit or letter is a digit separator, not a literal
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tokens(code):
    """[(text, line)] of the blanked code; lines count from 1."""
    result, line, pos = [], 1, 0
    for m in TOKEN.finditer(code):
        line += code.count("\n", pos, m.start())
        pos = m.start()
        result.append((m.group(), line))
    return result


def matches(toks):
    """The index of the partner of every bracket."""
    partner, stack = {}, []
    for i, (t, _) in enumerate(toks):
        if t in "([{":
            stack.append(i)
        elif t in ")]}" and stack:
            j = stack.pop()
            partner[i], partner[j] = j, i
    return partner


def head_start(toks, partner, brace):
    """The first token of what stands before a `{`, back to the previous statement or block."""
    i = brace - 1
    while i >= 0:
        t = toks[i][0]
        if t in ")]" and i in partner:
            i = partner[i] - 1
        elif t == "}" and i in partner:
            # `name{...}` in a constructor's initialiser list belongs to the head.
            k = partner[i] - 1
            if k >= 1 and re.match(r"\w", toks[k][0]) and toks[k - 1][0] in (",", ":"):
                i = k - 1
            else:
                break
        elif t in (";", "{", "}", "(", "["):
            break
        elif t == ":" and i >= 1 and toks[i - 1][0] in ("public", "private", "protected"):
            break
        else:
            i -= 1
    return i + 1


def function_start(toks, partner, brace):
    """The index of a function's first token if the `{` at `brace` opens a body, else None."""
    start = head_start(toks, partner, brace)
    if start >= brace:
        return None
    end = brace - 1
    # The specifiers and a trailing return type after the parameter list.
    arrow = next((k for k in range(end, start - 1, -1) if toks[k][0] == "->"), None)
    if arrow is not None and all(toks[k][0] not in ")]" or k < arrow for k in range(arrow, end + 1)):
        end = arrow - 1
    while end >= start and (toks[end][0] in SPECIFIERS or
                            (toks[end][0] == ")" and toks[partner.get(end, 0) - 1][0] == "noexcept")):
        end = partner[end] - 2 if toks[end][0] == ")" else end - 1
    if end < start:
        return None
    if toks[end][0] == "]":
        return lambda_start(toks, partner, end)
    if toks[end][0] == "}" and end in partner:  # a constructor whose last initialiser is `b_{b}`
        k = partner[end] - 1
        is_init = k >= 1 and re.match(r"\w", toks[k][0]) and toks[k - 1][0] in (",", ":")
        return start if is_init else None
    if toks[end][0] != ")" or end not in partner:
        return None
    before = partner[end] - 1
    if before < 0:
        return None
    word = toks[before][0]
    if word == "]":
        return lambda_start(toks, partner, before)
    if word in CONTROL or toks[start][0] in ("else", "do", "try", "=", "return"):
        return None
    if re.match(r"\w", word) or word in (")", ">") or toks[before - 1][0] == "operator":
        return start
    return None


def lambda_start(toks, partner, close):
    """The `[` of a lambda's capture list ending at `close`, unless it is an array's brackets."""
    open_ = partner.get(close)
    if open_ is None or (open_ > 0 and re.match(r"\w", toks[open_ - 1][0]) and
                         toks[open_ - 1][0] not in ("return", "co_return")):
        return None
    return open_


def functions(text):
    """(name, first line, last line) of every function body in a file's text."""
    toks = tokens(blank(text))
    partner = matches(toks)
    for i, (t, _) in enumerate(toks):
        if t == "{" and i in partner:
            start = function_start(toks, partner, i)
            if start is not None:
                yield name_of(toks, start, i), toks[start][1], toks[partner[i]][1]


def breaches(path, text, excepted=()):
    """The breaches of one file, as readable lines; `excepted`: names of its data tables."""
    out = []
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if lines > MAX_FILE_LINES:
        out.append(f"{path}: {lines} lines (at most {MAX_FILE_LINES})")
    found = list(functions(text))
    tables = [(first, last) for name, first, last in found if name in excepted]
    for name, first, last in found:
        inside = any(a <= first and last <= b for a, b in tables)
        if last - first + 1 > MAX_FUNCTION_LINES and not inside:
            out.append(f"{path}:{first}: function {name} has {last - first + 1} lines "
                       f"(at most {MAX_FUNCTION_LINES})")
    return out


def name_of(toks, start, brace):
    if toks[start][0] == "[":
        return "(lambda)"
    for k in range(start, brace):  # the word before the first parameter list
        if toks[k][0] == "(" and k > start:
            if toks[k - 1][0] == ")" and k >= 3 and toks[k - 3][0] == "operator":
                return "operator()"
            parts = [toks[k - 1][0]]
            j = k - 2
            while j >= start + 1 and toks[j][0] == "::":
                parts.insert(0, toks[j - 1][0])
                j -= 2
            return "::".join(parts)
    return "(unknown)"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
    root = os.path.normpath(root)
    found = []
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(folder, name)
            key = os.path.relpath(path, root)
            if key in DATA_TABLES:
                continue
            excepted = [k.split(":", 1)[1] for k in DATA_TABLES if k.startswith(key + ":")]
            with open(path, encoding="utf-8") as f:
                found += breaches(os.path.relpath(path, os.path.dirname(root)), f.read(), excepted)
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f"check-size: {len(found)} breach(es) of the size rules in {root}", file=sys.stderr)
        return 1
    print(f"check-size: every file in {root} has at most {MAX_FILE_LINES} lines and every "
          f"function at most {MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
