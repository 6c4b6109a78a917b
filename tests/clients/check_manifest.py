"""The manifest of an ogham `--library` build (`check_manifest.py clients.json BACKEND`):
the parts Futhark's manifest schema describes that the Python clients do not use."""

import json
import sys

m = json.load(open(sys.argv[1]))
assert m["backend"] == sys.argv[2], m["backend"]
eps = m["entry_points"]

# Inputs carry their source parameter names.
assert [i["name"] for i in eps["scale"]["inputs"]] == ["k", "xs"], eps["scale"]
assert eps["bump"]["inputs"] == [{"name": "xs", "type": "[]f32", "unique": True}], eps["bump"]
assert [i["name"] for i in eps["scaled"]["inputs"]] == ["k", "xs"], eps["scaled"]
assert eps["area"]["inputs"] == [{"name": "s", "type": "shape", "unique": False}], eps["area"]

# A sum type: its variants in tag order, with payloads and functions.
s = m["types"]["shape"]
assert s["kind"] == "opaque" and s["ctype"] == "struct futhark_opaque_shape *", s
assert s["sum"]["variant"] == "futhark_variant_opaque_shape", s
variants = [(v["name"], v["payload"]) for v in s["sum"]["variants"]]
assert variants == [("circle", ["f64"]), ("empty", []), ("poly", ["[]f64"]), ("rect", ["f64", "f64"])], variants
for v in s["sum"]["variants"]:
    assert v["construct"] == "futhark_new_opaque_shape_" + v["name"], v
    assert v["destruct"] == "futhark_destruct_opaque_shape_" + v["name"], v
assert "sum" not in m["types"]["pt"] and "record" in m["types"]["pt"]

# Tuning parameters, per entry point.
assert eps["tuned"]["tuning_params"] == ["block"], eps["tuned"]
assert eps["scale"]["tuning_params"] == [], eps["scale"]
print("manifest: ok")
