#!/usr/bin/env python3
"""Fails when an #include breaks engine/layers.txt.

Usage: check_includes.py [--root DIR] | --self-test

- A file in engine/<module>/ includes only its own module, modules listed
  before it in [order], and [base] headers; the modules of
  [interface-users] also the [interface] headers (engine/engine.h).
- The top-level engine files (engine/*.h, engine/*.cc: the [base] headers,
  their sources and the Engine interface) and those of engine/requests/
  (the request and result types) include only [base] headers.
- api/ and tools/ include only [base] and [public] engine headers.
Prints every violation as file:line: message; exits 1 if there is any.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s+"(engine/[^"]+)"')


def read_rules():
    sections = {}
    current = None
    for line in (ROOT / "engine" / "layers.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif current is not None:
            current.append(line)
    return (sections["order"], set(sections["base"]), set(sections["public"]),
            set(sections.get("interface", [])), set(sections.get("interface-users", [])))


def sources(folder):
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix in (".h", ".cc") and path.is_file():
            yield path


def includes(path):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        m = INCLUDE.match(line)
        if m:
            yield number, m.group(1)


# Folders of [base] headers: their files are held to the rule of the
# top-level files, as if they sat directly in engine/.
BASE_FOLDERS = ("requests",)


def module_of(header):
    parts = header.split("/")
    if len(parts) <= 2 or (len(parts) == 3 and parts[1] in BASE_FOLDERS):
        return None  # engine/*.h, engine/requests/*.h
    return parts[1]


def check():
    """Returns the violations under ROOT, one message each."""
    order, base, public, interface, interface_users = read_rules()
    rank = {m: i for i, m in enumerate(order)}
    errors = []
    for path in sources("engine"):
        rel = path.relative_to(ROOT).as_posix()
        mine = module_of(rel)
        if mine is None:
            # The base headers, their sources and the Engine interface.
            for number, header in includes(path):
                if header not in base:
                    errors.append(f"{rel}:{number}: top-level {rel} includes {header}, "
                                  "which is not a [base] header")
            continue
        if mine not in rank:
            errors.append(f"{rel}: module '{mine}' is not listed in engine/layers.txt")
            continue
        for number, header in includes(path):
            theirs = module_of(header)
            if header in base or theirs == mine:
                continue
            if header in interface and mine in interface_users:
                continue
            if theirs is None:
                errors.append(f"{rel}:{number}: {mine}/ includes {header}, "
                              "which is the facade, not a [base] header")
            elif theirs not in rank:
                errors.append(f"{rel}:{number}: unknown module of {header}")
            elif rank[theirs] > rank[mine]:
                errors.append(f"{rel}:{number}: {mine}/ includes {header}, "
                              f"but {theirs}/ comes after {mine}/ in engine/layers.txt")
    for folder in ("api", "tools"):
        for path in sources(folder):
            rel = path.relative_to(ROOT).as_posix()
            for number, header in includes(path):
                if header not in base and header not in public:
                    errors.append(f"{rel}:{number}: {folder}/ includes {header}, "
                                  "which is not a [public] engine header")
    return errors


def self_test():
    """Checks the checker on a small tree with one violation of each kind."""
    import tempfile
    global ROOT
    with tempfile.TemporaryDirectory() as tmp:
        ROOT = pathlib.Path(tmp)
        rules = (pathlib.Path(__file__).resolve().parent.parent / "engine" / "layers.txt")
        files = {
            "engine/layers.txt": rules.read_text(),
            "engine/keys/ok.cc": '#include "engine/keys/ok.h"\n#include "engine/value/x.h"\n'
                                 '#include "engine/status.h"\n',
            "engine/keys/up.cc": '#include "engine/data/write_path.h"\n',
            "engine/keys/facade.cc": '#include "engine/engine.h"\n',
            "engine/nowhere/x.cc": "",
            "engine/engine.cc": '#include "engine/data/write_path.h"\n',
            "engine/requests/scope.cc": '#include "engine/requests/scope.h"\n'
                                        '#include "engine/keys/key_codec.h"\n',
            "engine/partiql/runs.cc": '#include "engine/engine.h"\n',
            "engine/facade/impl.cc": '#include "engine/engine.h"\n'
                                     '#include "engine/data/write_path.h"\n',
            "api/ok.cc": '#include "engine/engine.h"\n#include "engine/plan/item_requests.h"\n',
            "tools/bad.cc": '#include "engine/index/propagator.h"\n',
        }
        for name, text in files.items():
            (ROOT / name).parent.mkdir(parents=True, exist_ok=True)
            (ROOT / name).write_text(text)
        errors = check()
    expected = ["engine/engine.cc:1:", "engine/keys/facade.cc:1:", "engine/keys/up.cc:1:",
                "engine/nowhere/x.cc:", "engine/requests/scope.cc:2:", "tools/bad.cc:1:"]
    found = sorted(e.split(" ", 1)[0] for e in errors)
    if found != expected:
        print("self-test failed: expected", expected, "got", errors)
        return 1
    print("self-test passed:", len(errors), "violations found as expected")
    return 0


def main():
    global ROOT
    args = sys.argv[1:]
    if args == ["--self-test"]:
        return self_test()
    if len(args) == 2 and args[0] == "--root":
        ROOT = pathlib.Path(args[1]).resolve()
    errors = check()
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} include(s) break engine/layers.txt", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
