-- Values that own their memory may be updated in place: a piped `map`, a
-- branch, a function result inferred unique, a nested path, a record field.
-- ==
-- input { [1, 2, 3] true } output { [9, 3, 4] [[0, 0], [0, 7]] 11 }
-- input { [1, 2, 3] false } output { [2, 3, 4] [[0, 0], [0, 7]] 11 }

def fresh (n: i64) = replicate n (replicate n 0i32)

def main (xs: []i32) (c: bool) =
  let ys = xs |> map (+ 1)
  let ys = if c then ys with [0] = 9 else ys
  let m = fresh 2
  let m[1][1] = 7
  let r = {v = copy xs, w = 1i32}
  let r = r with v[0] = 10
  in (ys, m, r.v[0] + r.w)
