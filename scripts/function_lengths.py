#!/usr/bin/env python3
"""Lists the longest functions and files of engine/, api/ and tools/.

Usage: function_lengths.py [--top N] [--over LINES] [DIR...]

A brace counter, not a parser: it strips comments, strings and character
literals, then takes a `{` outside any function whose preceding text has a
`)` and no `=` (and is not a class, struct, enum or namespace) as the start
of a function body, and its matching `}` as the end. A function's length is
from the line its signature starts on to its closing brace. Good enough to
find the long ones; read them before trusting a figure.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def strip(text):
    """Blanks comments and string/char literals, keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
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
        elif c == "R" and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):  # digit separator 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


NAME = re.compile(r"([~\w:]+(?:operator\s*[^\s(]+)?)\s*\($")


def functions(path):
    text = strip(path.read_text(errors="replace"))
    stack = []  # kinds of the open blocks: 'ns', 'class', 'func', 'other'
    header_start = 0
    starts = []  # for 'func': (signature line, name)
    for i, c in enumerate(text):
        if c in ";":
            header_start = i + 1
        elif c == "{":
            header = text[header_start:i]
            if "func" in stack:
                kind = "other"
            elif re.search(r"\bnamespace\b", header) or re.search(r'\bextern\s+""', header):
                kind = "ns"
            elif ")" in header and "=" not in header.replace("operator=", "").replace(
                    "==", "").replace("<=", "").replace(">=", "").replace("!=", ""):
                kind = "func"
            elif re.search(r"\b(class|struct|union|enum)\b", header):
                kind = "class"
            else:
                kind = "other"
            stack.append(kind)
            if kind == "func":
                sig = header.strip()
                first = header_start + (len(header) - len(header.lstrip()))
                paren = sig.find("(")
                m = NAME.search(sig[:paren + 1]) if paren >= 0 else None
                starts.append((text.count("\n", 0, first) + 1, m.group(1) if m else "?"))
            header_start = i + 1
        elif c == "}":
            kind = stack.pop() if stack else "other"
            if kind == "func":
                line, name = starts.pop()
                yield name, line, text.count("\n", 0, i) + 1
            header_start = i + 1
    return


def main():
    args = sys.argv[1:]
    top, over = 15, None
    if "--top" in args:
        k = args.index("--top")
        top = int(args[k + 1])
        del args[k:k + 2]
    if "--over" in args:
        k = args.index("--over")
        over = int(args[k + 1])
        del args[k:k + 2]
    dirs = args or ["engine", "api", "tools"]
    rows, files = [], []
    for d in dirs:
        for path in sorted((ROOT / d).rglob("*")):
            if path.suffix not in (".h", ".cc") or not path.is_file():
                continue
            rel = path.relative_to(ROOT).as_posix()
            files.append((path.read_text(errors="replace").count("\n"), rel))
            for name, start, end in functions(path):
                rows.append((end - start + 1, f"{rel}:{start}", name))
    rows.sort(reverse=True)
    files.sort(reverse=True)
    shown = [r for r in rows if over is None or r[0] > over] if over else rows[:top]
    print(f"functions ({len(rows)}), longest first:")
    for length, where, name in shown:
        print(f"  {length:5d}  {name}  {where}")
    print("files over 800 lines:" if over else f"largest files:")
    for lines, rel in (files if over else files[:5]):
        if over and lines <= 800:
            break
        print(f"  {lines:5d}  {rel}")


if __name__ == "__main__":
    main()
