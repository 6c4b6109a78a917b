-- Projection through nested records.
-- ==
-- input { 7 } output { 7 8 }
def main (v: i32) =
  let r = {outer = {inner = {val = v}}, other = v + 1}
  in (r.outer.inner.val, r.other)
