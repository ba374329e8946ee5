"""The folders are the architecture: each may include only the folders below it, as docs/development.md's
layout table says. Reads every #include "folder/..." of the library folders and fails on any
include that points up or sideways.
    layout_test.py REPO_ROOT"""
import os
import re
import sys

from cli_helpers import Checker

root = sys.argv[1]
# folder -> the folders it may include (besides itself); "larm" is include/larm (the public C API
# and the generated build information).
ALLOWED = {
    "results": set(),
    "topology": {"results"},
    "platform": {"results"},
    "codegen": {"results"},
    "kernels": {"results", "topology", "platform", "codegen"},
    "roofline": {"results", "codegen"},
    "validate": {"results", "topology", "platform", "codegen", "kernels"},
    "characterize": {"results", "topology", "platform", "codegen", "kernels", "roofline", "larm"},
    "report": {"results", "roofline"},
    "instrument": {"results", "topology", "platform", "larm"},
    "tools": {"results", "topology", "platform", "codegen", "kernels", "roofline", "validate",
              "characterize", "report", "larm"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)

c = Checker()
seen = 0
for folder, allowed in ALLOWED.items():
    path = os.path.join(root, folder)
    c.check(os.path.isdir(path), f"{folder}/ is missing")
    for directory, _, files in os.walk(path):
        for name in files:
            if not name.endswith((".h", ".cpp")):
                continue
            file = os.path.join(directory, name)
            text = open(file, encoding="utf-8").read()
            for target in INCLUDE.findall(text):
                seen += 1
                ok = target == folder or target in allowed
                c.check(ok, f"{os.path.relpath(file, root)} includes {target}/: "
                            f"{folder}/ may include only {sorted(allowed) or 'nothing'}")
c.check(seen > 100, f"only {seen} includes read: wrong root?")
# codegen's architecture-neutral part knows no instruction set encoder: xbyak only under x64/.
for name in os.listdir(os.path.join(root, "codegen")):
    file = os.path.join(root, "codegen", name)
    if os.path.isfile(file) and name.endswith(".h"):
        c.check("#include <xbyak" not in open(file).read(), f"codegen/{name} includes xbyak")
c.finish()
