"""The folders are the architecture: each may include only the folders below it, as
docs/development.md's layout table says. Reads every #include "folder/..." of the library folders
and fails on any include that points up or sideways, and on x86-specific code outside the
architecture folders (platform/x64/, codegen/x64/).
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
    # The text formatters (one output layer): what the commands print, of every library's data.
    "report/text": {"results", "topology", "roofline", "characterize"},
    "instrument": {"results", "topology", "platform", "larm"},
    "fleet": {"results", "topology", "platform", "codegen", "kernels", "roofline", "characterize",
              "larm"},
    # The engine that runs, samples and counts applications (larm count, profile, monitor, run);
    # report/ for finding a program in PATH.
    "application": {"results", "topology", "platform", "report", "instrument", "larm"},
    "tools": {"results", "topology", "platform", "codegen", "kernels", "roofline", "validate",
              "characterize", "report", "fleet", "instrument", "application", "larm"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)

c = Checker()
seen = 0
for folder, allowed in ALLOWED.items():
    path = os.path.join(root, folder)
    c.check(os.path.isdir(path), f"{folder}/ is missing")
    for directory, dirs, files in os.walk(path):
        # A sub-folder with its own entry (report/text) is checked under it.
        dirs[:] = [d for d in dirs if f"{folder}/{d}" not in ALLOWED]
        for name in files:
            if not name.endswith((".h", ".cpp")):
                continue
            file = os.path.join(directory, name)
            text = open(file, encoding="utf-8").read()
            for target in INCLUDE.findall(text):
                seen += 1
                ok = target == folder.split("/")[0] or target in allowed
                c.check(ok, f"{os.path.relpath(file, root)} includes {target}/: "
                            f"{folder}/ may include only {sorted(allowed) or 'nothing'}")
c.check(seen > 100, f"only {seen} includes read: wrong root?")
# tools/ parses options and prints: running a program (spawning, waiting for it) is the engine's,
# application/.
SPAWNS = re.compile(r"\b(posix_spawnp?|fork|vfork|waitpid|wait4|execvp?e?|ptrace)\s*\(")
for name in sorted(os.listdir(os.path.join(root, "tools"))):
    if not name.endswith((".h", ".cpp")):
        continue
    for number, line in enumerate(open(os.path.join(root, "tools", name), encoding="utf-8"), 1):
        m = None if line.lstrip().startswith("//") else SPAWNS.search(line)
        c.check(m is None, f"tools/{name}:{number}: {m.group(1) if m else ''}: running programs "
                           "belongs to application/, tools/ is the CLI")
# The architecture seam: what names an instruction or an x86 register lives under an
# architecture folder (platform/x64/, codegen/x64/; a new architecture adds its own). Elsewhere in
# the library folders, the CLI and the examples: no x86 intrinsics or cpuid header, no xbyak, no
# inline assembly, no direct TSC read.
ARCH_FOLDERS = {"x64", "aarch64", "riscv64"}
X86_ONLY = re.compile(r'#\s*include\s*<(x86intrin|immintrin|emmintrin|xmmintrin|cpuid|xbyak/[^>]*)\.h>'
                      r'|\b(__asm__|asm)\s*(volatile\s*)?\(|__rdtsc|_mm_[a-z0-9_]+\(|__builtin_ia32_')
arch_checked = 0
for folder in list(ALLOWED) + ["examples"]:
    for directory, dirs, files in os.walk(os.path.join(root, folder)):
        # Architecture folders are where such code belongs; report/text is walked as its own entry.
        dirs[:] = [d for d in dirs if d not in ARCH_FOLDERS and f"{folder}/{d}" not in ALLOWED]
        for name in files:
            if not name.endswith((".h", ".cpp", ".c")):
                continue
            file = os.path.join(directory, name)
            arch_checked += 1
            for number, line in enumerate(open(file, encoding="utf-8"), 1):
                if line.lstrip().startswith("//"):
                    continue
                m = X86_ONLY.search(line)
                c.check(m is None, f"{os.path.relpath(file, root)}:{number}: {m.group(0) if m else ''}: "
                                   "architecture-specific code outside platform/x64/ or codegen/x64/")
c.check(arch_checked > 100, f"only {arch_checked} files checked for architecture code: wrong root?")
# Verdicts are decided in roofline/ as data and phrased in report/text/: the placement's model
# builds no English. A string literal with two words in it is prose (a roof's name is built in
# results/roof_names.cpp, a verdict's words in report/text/placement_text.cpp).
PROSE = re.compile(r'"(?:[^"\\\n]|\\.)*[A-Za-z]{2,} [A-Za-z]{2,}(?:[^"\\\n]|\\.)*"')
decided = ["region_placement", "region_points", "region_roofs", "memory_level", "fp_mix"]
for stem in decided:
    for ext in (".h", ".cpp"):
        file = os.path.join(root, "roofline", stem + ext)
        c.check(os.path.exists(file), f"roofline/{stem}{ext} is missing")
        if not os.path.exists(file):
            continue
        for number, line in enumerate(open(file, encoding="utf-8"), 1):
            code = line.split("//", 1)[0]
            m = PROSE.search(code)
            c.check(m is None, f"roofline/{stem}{ext}:{number}: {m.group(0) if m else ''}: prose in "
                               "the model (phrase it in report/text/)")
c.finish()
