-- Nested record update with a path.
-- ==
-- input { 1 } output { 1 10 3 }
type inner = {a: i32, b: i32}
type outer = {i: inner, c: i32}
def main (v: i32) =
  let r: outer = {i = {a = v, b = 2}, c = 3}
  let r = r with i.b = 10
  in (r.i.a, r.i.b, r.c)
