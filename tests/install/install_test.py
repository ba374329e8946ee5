"""cmake --install into a temporary prefix, then use it as an application's build would, seeing
only that prefix:

  install_test.py BUILD_DIR SOURCE_DIR

- the prefix holds the larm CLI, liblarm.so and liblarm.a, the headers, the CMake package,
  larm.pc, the JSON schemas, larm count's Valgrind tool and a man page per command;
- `larm --version` from the prefix gives the version and the commit;
- an out-of-tree C program built with find_package(larm) (shared, and larm::larm_static), one
  with `pkg-config --cflags --libs larm`, and the LIKWID markers program: each runs and writes
  regions.json, without LD_LIBRARY_PATH (larm.pc carries an rpath to the prefix's libdir);
- the installed `larm count` uses the installed tool;
- where larm was built with its GCC plugin: the program built through the installed larm-cc, with
  `pkg-config --cflags larm-count`, and with larm_instrument(TARGET) of the CMake package each
  counts itself in its native runs (2e5 FLOPs), and the installed larm count says so."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from region_client import write_client  # noqa: E402

build, source = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    if result.returncode != 0:
        print("$ " + " ".join(command) + "\n" + result.stdout[-2000:] + result.stderr[-2000:])
    return result



with tempfile.TemporaryDirectory(prefix="larm-install-test-") as tmp:
    prefix = os.path.join(tmp, "prefix")
    check(run(["cmake", "--install", build, "--prefix", prefix]).returncode == 0, "cmake --install")
    libdir = next((os.path.join(prefix, d) for d in ("lib", "lib64", "lib/x86_64-linux-gnu")
                   if os.path.exists(os.path.join(prefix, d, "liblarm.so"))), None)
    check(libdir is not None, "liblarm.so installed")
    if libdir is None:
        sys.exit(1)
    expected = ["bin/larm", "include/larm/region.h", "include/larm/monitor.h",
                "include/larm/likwid-markers.h", "share/larm/schema/monitor-trace-v1.schema.json",
                "share/larm/schema/regions-v1.schema.json", "share/man/man1/larm.1.gz",
                "share/man/man1/larm-count.1.gz", "share/man/man1/larm-place.1.gz",
                "share/man/man1/larm-profile.1.gz", "share/man/man1/larm-bench.1.gz",
                "share/man/man1/larm-diff.1.gz"]
    rel = os.path.relpath(libdir, prefix)
    expected += [rel + "/liblarm.a", rel + "/cmake/larm/larmConfig.cmake", rel + "/pkgconfig/larm.pc",
                 rel + "/larm/valgrind/larmcount-amd64-linux"]
    for path in expected:
        check(os.path.exists(os.path.join(prefix, path)), "installed: " + path)
    version = run([os.path.join(prefix, "bin", "larm"), "--version"])
    check(version.returncode == 0 and "0.1.0 (" in version.stdout, "larm --version: " + version.stdout.strip())
    man = run(["man", "-l", "-P", "cat", os.path.join(prefix, "share/man/man1/larm-place.1.gz")],
              env=dict(os.environ, MANWIDTH="80")) if shutil.which("man") else None
    if man is not None:
        check(man.returncode == 0 and "--counts" in man.stdout, "man page of larm place lists --counts")
        # Every page a reader's page: what it is, its options, examples, files, exit status, see also.
        for page in sorted(os.listdir(os.path.join(prefix, "share/man/man1"))):
            text = run(["man", "-l", "-P", "cat", os.path.join(prefix, "share/man/man1", page)],
                       env=dict(os.environ, MANWIDTH="80")).stdout
            for section in ("NAME", "DESCRIPTION", "OPTIONS", "EXAMPLES", "EXIT STATUS", "SEE ALSO"):
                check(re.search(rf"^{section}$", text, re.M) is not None, f"{page}: no {section} section")

    # Nothing of the build tree may be seen: the programs are built in their own directory.
    app = os.path.join(tmp, "app")
    write_client(app, static=True)
    configured = run(["cmake", "-S", app, "-B", os.path.join(app, "build"), "-DCMAKE_PREFIX_PATH=" + prefix])
    check(configured.returncode == 0, "find_package(larm) from the prefix")
    built = run(["cmake", "--build", os.path.join(app, "build")])
    check(built.returncode == 0, "built against larm::larm and larm::larm_static")
    for exe in ("uses_larm", "uses_larm_static"):
        out = os.path.join(tmp, "out-" + exe)
        ran = run([os.path.join(app, "build", exe)],
                  env={**{k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}, "LARM_OUT": out})
        ok = ran.returncode == 0 and os.path.exists(os.path.join(out, "regions.json"))
        check(ok, exe + " runs and writes regions.json")
        if ok:
            with open(os.path.join(out, "regions.json")) as f:
                doc = json.load(f)
            check(doc["regions"][0]["name"] == "scale", exe + ": region scale recorded")

    pc_env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "larm"], env=pc_env)
    check(flags.returncode == 0 and prefix in flags.stdout, "pkg-config --cflags --libs larm: " + flags.stdout.strip())
    exe = os.path.join(tmp, "pkgconfig_app")
    compiled = run(["cc", os.path.join(app, "main.c"), "-o", exe] + flags.stdout.split())
    check(compiled.returncode == 0, "built with pkg-config's flags")
    out = os.path.join(tmp, "out-pkgconfig")
    no_path = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    ran = run([exe], env=dict(no_path, LARM_OUT=out))
    check(ran.returncode == 0 and os.path.exists(os.path.join(out, "regions.json")),
          "the pkg-config program runs and writes regions.json")

    likwid = os.path.join(tmp, "likwid_app")
    compiled = run(["cc", "-fopenmp", "-DLIKWID_PERFMON",
                    os.path.join(source, "tests", "regions", "likwid_markers_program.c"), "-o", likwid]
                   + flags.stdout.split())
    check(compiled.returncode == 0, "LIKWID markers program built against the prefix")
    out = os.path.join(tmp, "out-likwid")
    ran = run([likwid], env=dict(no_path, LARM_OUT=out, OMP_NUM_THREADS="2"))
    check(ran.returncode == 0 and os.path.exists(os.path.join(out, "regions.json")),
          "the LIKWID markers program runs on the installed liblarm")

    # The installed larm count finds the installed tool.
    counted = run([os.path.join(prefix, "bin", "larm"), "count", "--no-native", "--out",
                   os.path.join(tmp, "count"), "--", os.path.join(app, "build", "uses_larm")],
                  env={k: v for k, v in os.environ.items() if k != "LARM_COUNT_TOOL_DIR"})
    check(counted.returncode == 0 and os.path.join(libdir, "larm", "valgrind") in counted.stderr,
          "installed larm count uses the installed tool")
    if counted.returncode == 0:
        with open(os.path.join(tmp, "count", "counted", "regions.json")) as f:
            m = json.load(f)["regions"][0]["machine"]
        check(m["flops_source"] == "counted" and abs(m["flops"] - 2e5) <= 2e2,
              "installed count: %.0f FLOPs counted (2e5 expected)" % m["flops"])

    # The GCC plugin as installed, three ways a build takes it.
    plugin = os.path.join(libdir, "larm", "gcc", "larm_gcc_plugin.so")
    if os.path.exists(os.path.join(build, "lib", "larm", "gcc", "larm_gcc_plugin.so")):
        for path in (plugin, os.path.join(prefix, "bin", "larm-cc"),
                     os.path.join(prefix, "bin", "larm-c++"), os.path.join(libdir, "pkgconfig", "larm-count.pc")):
            check(os.path.exists(path), "installed: " + os.path.relpath(path, prefix))
        count_flags = run(["pkg-config", "--cflags", "larm-count"], env=pc_env)
        check(count_flags.returncode == 0 and "-fplugin=" + plugin in count_flags.stdout,
              "pkg-config --cflags larm-count: " + count_flags.stdout.strip())
        programs = {}
        exe = os.path.join(tmp, "wrapper_app")
        if run([os.path.join(prefix, "bin", "larm-cc"), "-O2", os.path.join(app, "main.c"), "-o", exe]
               + flags.stdout.split()).returncode == 0:
            programs["larm-cc"] = exe
        exe = os.path.join(tmp, "pc_count_app")
        if run(["gcc", "-O2", os.path.join(app, "main.c"), "-o", exe] + count_flags.stdout.split()
               + flags.stdout.split()).returncode == 0:
            programs["pkg-config larm-count"] = exe
        with open(os.path.join(app, "CMakeLists.txt"), "a") as f:
            f.write("add_executable(uses_larm_counted main.c)\n"
                    "target_link_libraries(uses_larm_counted PRIVATE larm::larm)\n"
                    "larm_instrument(uses_larm_counted)\n")
        if (run(["cmake", "-S", app, "-B", os.path.join(app, "build")]).returncode == 0
                and run(["cmake", "--build", os.path.join(app, "build")]).returncode == 0):
            programs["larm_instrument"] = os.path.join(app, "build", "uses_larm_counted")
        check(len(programs) == 3, f"built through the plugin three ways: {sorted(programs)}")
        for how, exe in programs.items():
            out = os.path.join(tmp, "count-" + how.replace(" ", "-"))
            counted = run([os.path.join(prefix, "bin", "larm"), "count", "--repeat", "1", "--out", out,
                           "--", exe], env=no_path)
            ok = counted.returncode == 0 and "Counted by larm's compiler plugin" in counted.stdout
            check(ok, f"{how}: the installed larm count takes the native run's counts")
            if ok:
                with open(os.path.join(out, "timed", "regions.json")) as f:
                    m = json.load(f)["regions"][0]["machine"]
                check(m["flops_source"] == "counted" and m["flops"] == 2e5,
                      f"{how}: {m['flops']:.0f} FLOPs counted natively (2e5)")
        # larm profile's reader of the counts per function, as installed: the native run of a
        # plugin build writes them (the program is too short to place a function: exit 1 then).
        reader = os.path.join(libdir, "larm", "larm_plugin_runtime.so")
        check(os.path.exists(reader), "installed: " + os.path.relpath(reader, prefix))
        if shutil.which("perf") and "larm-cc" in programs:
            out = os.path.join(tmp, "profile-larm-cc")
            profiled = run([os.path.join(prefix, "bin", "larm"), "profile", "--repeat", "1", "--out",
                            out, "--", programs["larm-cc"]], env=no_path)
            counted = os.path.join(out, "counted")
            files = [f for f in os.listdir(counted)] if os.path.isdir(counted) else []
            check(any(f.startswith("functions-") for f in files) and
                  "not built or not found" not in profiled.stderr,
                  f"the installed larm profile reads a plugin build's counts per function "
                  f"({files}; {profiled.stderr.strip()[-300:]!r})")

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
