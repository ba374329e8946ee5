"""larm's Valgrind tool counts each of 36,000 functions under its own name: no table of functions
fills up (a fixed one of 2^16 slots counted every function past the 32,767th as the first).
A generated C program calls 36,000 functions once each; function k adds k % 7 + 1 times. The tool's
--larm-functions file must list every one, each with its own count of additions.
    many_functions_test.py TOOL_DIR VALGRIND_LIBEXEC_DIR CC"""
import os
import shutil
import subprocess
import sys
import tempfile

tool_dir, libexec, cc = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
FUNCTIONS = 36000
work = tempfile.mkdtemp(prefix="larm-many-functions-")
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


source = os.path.join(work, "many.c")
with open(source, "w") as f:
    f.write("volatile double sink;\n")
    for k in range(FUNCTIONS):
        # k + 1 additions each, none folded away (volatile).
        f.write(f"__attribute__((noinline)) void f{k}(void) {{ double s = sink; "
                f"for (int i = 0; i <= {k % 7}; ++i) s += 1.0; sink = s; }}\n")
    f.write("int main(void) {\n")
    for k in range(FUNCTIONS):
        f.write(f"  f{k}();\n")
    f.write("  return 0;\n}\n")
program = os.path.join(work, "many")
built = subprocess.run([cc, "-O0", "-o", program, source], capture_output=True, text=True,
                       timeout=600)
check(built.returncode == 0, f"the program builds: {built.stderr[-300:]}")
if built.returncode != 0:
    sys.exit(1)

# Valgrind loads a tool from VALGRIND_LIB with its preload libraries beside it, as larm does.
lib = os.path.join(work, "lib")
os.makedirs(lib)
for name in os.listdir(libexec):
    os.symlink(os.path.join(libexec, name), os.path.join(lib, name))
for name in os.listdir(tool_dir):
    target = os.path.join(lib, name)
    if os.path.lexists(target):
        os.remove(target)
    os.symlink(os.path.join(tool_dir, name), target)
functions = os.path.join(work, "functions.tsv")
ran = subprocess.run(["valgrind", "--tool=larmcount", "-q", f"--larm-functions={functions}",
                      program], capture_output=True, text=True, timeout=900,
                     env=dict(os.environ, VALGRIND_LIB=lib))
check(ran.returncode == 0, f"the counting run: exit {ran.returncode}: {ran.stderr[-300:]}")

names, adds = {}, {}
column = None
with open(functions) as f:
    for line in f:
        fields = line.rstrip("\n").split("\t")
        if fields[0] == "counts":
            column = fields.index("flops_dp_scalar") + 2  # "c", slot, id, then the counts
        elif fields[0] == "f":
            names[int(fields[1])] = fields[3]
        elif fields[0] == "c" and column is not None:
            adds[int(fields[2])] = adds.get(int(fields[2]), 0) + float(fields[column])
by_name = {name: adds.get(i, 0) for i, name in names.items()}
generated = [f"f{k}" for k in range(FUNCTIONS)]
listed = [n for n in generated if n in by_name]
check(len(listed) == FUNCTIONS, f"every function listed: {len(listed)} of {FUNCTIONS}")
wrong = [n for n in generated if by_name.get(n) != int(n[1:]) % 7 + 1]
check(not wrong, f"each function's own additions: {len(wrong)} wrong, e.g. "
      f"{[(n, by_name.get(n)) for n in wrong[:3]]}")
check(by_name.get("f35999") == 35999 % 7 + 1, "the 36,000th function counted as itself")
shutil.rmtree(work, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
