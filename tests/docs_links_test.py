"""The README and docs/ link to one another by file and heading: every relative link names a file
that exists and, with #anchor, a heading of that file (GitHub's anchors: lower case, punctuation
dropped, spaces as hyphens). The README stays a front door: at most 250 lines.
    docs_links_test.py REPO_ROOT"""
import os
import re
import sys

root = sys.argv[1]
failures = []


def anchors(path):
    found, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,6} ", line):
            text = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower())
            found.add(text.replace(" ", "-"))
    return found


documents = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
for doc in documents:
    fenced = False
    for number, line in enumerate(open(doc, encoding="utf-8"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            file = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            where = f"{os.path.relpath(doc, root)}:{number}"
            if not os.path.exists(file):
                failures.append(f"{where}: {target}: no file {os.path.relpath(file, root)}")
            elif anchor and file.endswith(".md") and anchor not in anchors(file):
                failures.append(f"{where}: {target}: no heading #{anchor} in {os.path.relpath(file, root)}")

readme_lines = sum(1 for _ in open(os.path.join(root, "README.md"), encoding="utf-8"))
if readme_lines > 250:
    failures.append(f"README.md: {readme_lines} lines, the front door holds at most 250")
for f in failures:
    print(f)
print(f"{len(documents)} documents, README {readme_lines} lines, {len(failures)} broken")
sys.exit(1 if failures else 0)
