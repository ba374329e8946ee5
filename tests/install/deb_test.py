#!/usr/bin/env python3
"""larm as a Debian package, from a release build (label "install", release stage):
- `cpack -G DEB` makes larm_<version>_<arch>.deb; lintian finds no error in it (warnings printed);
- `apt-get install ./larm_*.deb` installs it with the Depends dpkg-shlibdeps computed;
- the installed larm runs: --version, kernels, a quick FLOP characterization;
- a region client builds against the system install with find_package(larm) and with
  `pkg-config --cflags --libs larm`, and runs without LD_LIBRARY_PATH; larm count counts it with
  the installed Valgrind tool, and without it says so (never taking the build tree's);
- `apt-get purge larm` leaves none of its files behind.
Needs root and apt (the CI machine); elsewhere it skips (exit 77). It changes the machine's
packages for its duration and purges larm at the end, also when a step fails.

usage: deb_test.py BUILD_DIR
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from region_client import write_client  # noqa: E402

build = sys.argv[1]
failures = []


def check(condition, message):
    print(("ok  " if condition else "FAIL") + ": " + message)
    if not condition:
        failures.append(message)


def run(command, timeout=600, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)


if os.geteuid() != 0 or shutil.which("apt-get") is None or shutil.which("cpack") is None:
    print("SKIP: the Debian package test needs root, apt-get and cpack")
    sys.exit(77)
if run(["dpkg-query", "-W", "larm"]).returncode == 0:
    print("SKIP: a larm package is installed on this machine already; the test does not touch it")
    sys.exit(77)

no_path = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LARM_COUNT_TOOL_DIR")}

with tempfile.TemporaryDirectory(prefix="larm-deb-test-") as tmp:
    made = run(["cpack", "-G", "DEB", "-B", tmp, "--config", os.path.join(build, "CPackConfig.cmake")])
    debs = glob.glob(os.path.join(tmp, "larm_*.deb"))
    check(made.returncode == 0 and len(debs) == 1, "cpack -G DEB: " + (made.stderr or made.stdout)[-400:])
    if not debs:
        sys.exit(1)
    deb = debs[0]
    print("package:", os.path.basename(deb))
    fields = run(["dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends", "Recommends"])
    print(fields.stdout)
    check("libhwloc" in fields.stdout and "libc6" in fields.stdout,
          "Depends from the libraries linked (dpkg-shlibdeps)")
    check("gnuplot-nox" in fields.stdout and "valgrind" in fields.stdout, "Recommends gnuplot-nox and valgrind")
    if shutil.which("lintian"):
        lint = run(["lintian", "--no-tag-display-limit", deb], timeout=600)
        tags = [line for line in lint.stdout.splitlines() if line[:2] in ("E:", "W:")]
        print("\n".join("lintian " + t for t in tags))
        check(not any(t.startswith("E:") for t in tags), "lintian: no error")
    else:
        check(False, "lintian is not installed (scripts/install-deps.sh test installs it)")

    files = []
    try:
        installed = run(["apt-get", "install", "-y", "-q", "--no-install-recommends", deb],
                        env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        check(installed.returncode == 0, "apt-get install ./larm.deb: " + installed.stderr[-400:])
        larm = "/usr/bin/larm"
        version = run([larm, "--version"], env=no_path)
        check(version.returncode == 0 and "0.1.0" in version.stdout, "larm --version: " + version.stdout.strip())
        kernels = run([larm, "kernels"], env=no_path)
        check(kernels.returncode == 0 and "fma" in kernels.stdout, "larm kernels")
        out = os.path.join(tmp, "flops")
        flops = run([larm, "characterize", "--quick", "--only", "flops", "--out", out], env=no_path,
                    timeout=900)
        check(flops.returncode == 0 and os.path.exists(os.path.join(out, "results.json")),
              "larm characterize --quick --only flops: " + flops.stderr[-300:])
        check(os.path.exists("/usr/share/man/man1/larm-place.1") or
              os.path.exists("/usr/share/man/man1/larm-place.1.gz"), "man pages installed")

        app = os.path.join(tmp, "app")
        write_client(app)
        configured = run(["cmake", "-S", app, "-B", os.path.join(app, "build")], env=no_path)
        check(configured.returncode == 0, "find_package(larm) from the system: " + configured.stderr[-300:])
        built = run(["cmake", "--build", os.path.join(app, "build")], env=no_path)
        check(built.returncode == 0, "built against larm::larm")
        region_out = os.path.join(tmp, "out-cmake")
        ran = run([os.path.join(app, "build", "uses_larm")], env=dict(no_path, LARM_OUT=region_out))
        check(ran.returncode == 0 and os.path.exists(os.path.join(region_out, "regions.json")),
              "the find_package client runs without LD_LIBRARY_PATH")
        if shutil.which("valgrind"):
            # The installed (stripped) Valgrind tool counts the client.
            counted = run(["/usr/bin/larm", "count", "--out", os.path.join(tmp, "counted"), "--",
                           os.path.join(app, "build", "uses_larm")], env=no_path, timeout=600)
            counts = os.path.join(tmp, "counted", "counted", "regions.json")
            check(counted.returncode == 0 and os.path.exists(counts) and
                  json.load(open(counts)).get("run") == "counted",
                  "larm count with the installed tool: " + counted.stderr[-300:])
            # Without its own tool, the installed larm does not fall back on the build's tree
            # (which is here): it says the tool is missing.
            tools = [line for line in run(["dpkg", "-L", "larm"]).stdout.splitlines()
                     if line.endswith("/larmcount-amd64-linux") and os.path.isfile(line)]
            if tools:
                os.rename(tools[0], tools[0] + ".aside")
                try:
                    lost = run(["/usr/bin/larm", "count", "--out", os.path.join(tmp, "no-tool"),
                                "--", os.path.join(app, "build", "uses_larm")], env=no_path)
                finally:
                    os.rename(tools[0] + ".aside", tools[0])
                check(lost.returncode == 2 and "not built or not found" in lost.stderr,
                      "the installed larm never takes the build tree's tool: " + lost.stderr[-300:])
        flags = run(["pkg-config", "--cflags", "--libs", "larm"], env=no_path)
        check(flags.returncode == 0 and "-llarm" in flags.stdout, "pkg-config --cflags --libs larm: " + flags.stdout.strip())
        exe = os.path.join(tmp, "pkgconfig_app")
        compiled = run(["cc", os.path.join(app, "main.c"), "-o", exe] + flags.stdout.split(), env=no_path)
        check(compiled.returncode == 0, "built with pkg-config's flags")
        region_out = os.path.join(tmp, "out-pkgconfig")
        ran = run([exe], env=dict(no_path, LARM_OUT=region_out))
        ok = ran.returncode == 0 and os.path.exists(os.path.join(region_out, "regions.json"))
        check(ok, "the pkg-config client runs without LD_LIBRARY_PATH")
        if ok:
            with open(os.path.join(region_out, "regions.json")) as f:
                check(json.load(f)["regions"][0]["name"] == "scale", "region scale recorded")
        files = [line for line in run(["dpkg", "-L", "larm"]).stdout.splitlines()
                 if os.path.isfile(line)]
        check(len(files) > 20, f"dpkg -L larm lists its {len(files)} files")
    finally:
        purged = run(["apt-get", "purge", "-y", "-q", "larm"],
                     env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    check(purged.returncode == 0, "apt-get purge larm: " + purged.stderr[-300:])
    check(run(["dpkg-query", "-W", "larm"]).returncode != 0, "larm no longer known to dpkg")
    left = [f for f in files if os.path.exists(f)]
    check(not left, "purge leaves none of its files: " + ", ".join(left[:5]))
    for path in ("/usr/share/doc/larm", "/usr/share/larm"):
        check(not os.path.exists(path), "purge leaves no " + path)

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
