#!/usr/bin/python3
"""Write measured figures into the docs: every block between
  <!-- bench: SOURCE [NAME_REGEX ...] -->  and  <!-- /bench -->
is replaced by SOURCE from the bench folder: a Markdown file as it is, or
the BENCH lines of a .txt file (those whose name matches a regex, all if
none is given) as a table. A source not measured yet leaves its block as it
was and is named on stderr.

usage: update_docs.py BENCH_DIR DOC.md...
"""
import os
import re
import sys

BLOCK = re.compile(r"(<!-- bench: (\S+)((?: \S+)*) -->\n)(.*?)(<!-- /bench -->)", re.S)


def bench_table(path, patterns):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "BENCH":
                if not patterns or any(re.fullmatch(p, parts[1]) for p in patterns):
                    rows.append(f"| `{parts[1]}` | {parts[2]} | {' '.join(parts[3:])} |")
    return "| figure | value | unit |\n|---|---|---|\n" + "\n".join(rows) + "\n"


def render(bench_dir, source, patterns, missing):
    path = os.path.join(bench_dir, source)
    if not os.path.exists(path):
        missing.append(source)
        return None
    if source.endswith(".md"):
        with open(path) as f:
            return f.read().rstrip("\n") + "\n"
    return bench_table(path, patterns)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bench_dir, missing = sys.argv[1], []
    for doc in sys.argv[2:]:
        with open(doc) as f:
            text = f.read()

        def fill(m):
            body = render(bench_dir, m.group(2), m.group(3).split(), missing)
            return m.group(0) if body is None else m.group(1) + body + m.group(5)
        new = BLOCK.sub(fill, text)
        if new != text:
            with open(doc, "w") as f:
                f.write(new)
    for source in sorted(set(missing)):
        print(f"update_docs: {source} not measured yet: its blocks are unchanged", file=sys.stderr)


if __name__ == "__main__":
    main()
