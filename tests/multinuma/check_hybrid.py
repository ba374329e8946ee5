"""Checks hybrid.json of `larm hybrid sweep` run in the three-node QEMU guest: valid against the
schema, domain 0's DRAM as the fast memory and the nearest remote DRAM as the slow one, every
point measured with its pages where the page-mixed layout puts them (the share on the fast memory
within 2 points of the asked one), the STREAM validation run. Bandwidths under TCG mean nothing:
the fit may be refused, but then with its reason."""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
from cli_helpers import Checker  # noqa: E402

c = Checker()
doc = json.load(open(sys.argv[1]))
schema = json.load(open(os.path.join(here, "..", "..", "results", "schema", "hybrid-v1.schema.json")))
try:
    jsonschema.validate(doc, schema)
except jsonschema.ValidationError as e:
    c.check(False, f"hybrid.json does not follow the schema: {e.message} at {list(e.path)}")
c.check(doc["status"] == "ok" and doc["complete"], f"status {doc['status']}: {doc['reason']}")
c.check(doc["fast"]["memory"] == "0", f"fast memory {doc['fast']}")
c.check(doc["slow"]["memory"] in ("1", "2"), f"slow memory {doc['slow']}")
grid = {(p["ratio_fast"], p["ratio_read"]) for p in doc["sweep"]}
# The 5 x 3 grid asked for, and the STREAM kernels' own read ratio 2/3 joined to it (add, triad)
# since the validation runs: 5 x 4 points.
reads = sorted({round(p["ratio_read"], 4) for p in doc["sweep"]})
c.check(reads == [0, 0.5, 0.6667, 1], f"ratio_read of the sweep: {reads}")
c.check(len(doc["sweep"]) == 20 and len(grid) == 20, f"{len(doc['sweep'])} sweep points")
for p in doc["sweep"] + doc["validation"]:
    where = f"{p['kernel']} ratio_fast {p['ratio_fast']} ratio_read {p['ratio_read']}"
    c.check(p["status"] in ("ok", "unstable"), f"{where}: {p['status']}")
    c.check(p["placed_fraction"] >= 0.99, f"{where}: placed {p['placed_fraction']}")
    found = p["ratio_fast_found"]
    c.check(found is not None and abs(found - p["ratio_fast"]) <= 0.02,
            f"{where}: {found} of the bytes on the fast memory")
kernels = sorted({p["kernel"] for p in doc["validation"]})
c.check(kernels == sorted(["copy", "scale", "add", "triad", "ddot"]), f"validation {kernels}")
c.check(doc["fit"] is not None or doc["fit_error"], "neither a fit nor the reason there is none")
print(f"hybrid: fast {doc['fast']['memory']} slow {doc['slow']['memory']}, "
      f"{len(doc['sweep'])} sweep points, {len(doc['validation'])} validation points, "
      f"fit: {'yes' if doc['fit'] else doc['fit_error']}")
c.finish()
