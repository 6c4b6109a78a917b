-- Trailing commas are allowed in array literals, tuples and records.
-- ==
-- input { } output { [1, 2, 3] 5 }
def main =
  let r = {a = 2, b = 3,}
  let t = (r.a, r.b,)
  in ([1, 2, 3,], t.0 + t.1)
