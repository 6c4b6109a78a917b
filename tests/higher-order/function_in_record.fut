-- A record holding a function, built and used locally.
-- ==
-- input { 6 } output { 36 }
def main (x: i32) =
  let r = {f = (\(y: i32) -> y * y), v = x}
  in r.f r.v
