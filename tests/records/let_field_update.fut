-- let r.f = v is sugar for a record update.
-- ==
-- input { 3 } output { 3 9 }
def main (v: i32) =
  let r = {p = v, q = v}
  let r.q = v * 3
  in (r.p, r.q)
