#!/usr/bin/env python3
"""Runs the LIKWID-instrumented program on larm and checks regions.json and LIKWID_MARKER_GET."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from cli_helpers import Checker  # noqa: E402


def main() -> int:
    program = sys.argv[1]
    check = Checker()
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, LARM_OUT=out, LARM_LABEL="likwid", OMP_NUM_THREADS="2")
        run = subprocess.run([program], env=env, capture_output=True, text=True, timeout=120)
        check.check_equal(run.returncode, 0, "program exits 0: " + run.stderr.strip())
        check.check("nevents=0 count=5 time_positive=1 threads=2" in run.stdout,
                   "LIKWID_MARKER_GET gives no events, 5 calls and a time: " + run.stdout.strip())
        check.check_equal(run.stderr.strip(), "", "no larm message on a well-formed run")
        with open(os.path.join(out, "regions.json")) as f:
            doc = json.load(f)
        schema_file = sys.argv[2]
        try:
            import jsonschema
            jsonschema.validate(doc, json.load(open(schema_file)))
            check.check(True, "regions.json follows its JSON Schema")
        except jsonschema.ValidationError as error:
            check.check(False, f"regions.json does not follow {schema_file}: {error.message}")
        check.check_equal(doc["label"], "likwid", "label from LARM_LABEL")
        triad = [r for r in doc["regions"] if r["name"] == "triad"]
        check.check_equal(len(triad), 1, "one region triad")
        if triad:
            threads = triad[0]["threads"]
            check.check_equal(len(threads), 2, "both OpenMP threads recorded")
            check.check(all(t["calls"] == 5 for t in threads), "5 calls on each thread")
            check.check_equal(triad[0]["machine"]["calls"], 10, "10 calls on the machine")
            check.check(triad[0]["machine"]["ai"] is None, "no counts: no AI")
        check.check(os.path.exists(os.path.join(out, "regions.csv")), "regions.csv written")
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
