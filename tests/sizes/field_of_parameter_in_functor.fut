-- A size written as a field of a value parameter (`[s.0]`) is the value of
-- that field at each call, also in a functor's body, where every application
-- checks a fresh copy of the body: the result's sizes are those of the
-- argument, not unknown sizes filled with zero.
-- ==
-- input { 3i64 4i64 } output { 3i64 5i64 2i64 3i64 }
-- input { 0i64 0i64 } output { 0i64 1i64 2i64 0i64 }

module frame (_: {}) = {
  type cube [a] [b] = [0][a][b]()
  def cube (s: (i64, i64)) : cube [s.0] [s.1] = []
  def grow [a] [b] (_: cube [a] [b]) = cube (a, b + 1)
  def pair (r: {w: i64, h: i64}) : [r.w][r.h]i32 = replicate r.w (replicate r.h 0)
}

module F = frame {}

def main (x: i64) (y: i64) =
  let [n][m] (_: [0][n][m]()) = F.grow (F.cube (x, y))
  let [k][l] (_: [k][l]i32) = F.pair {w = 2, h = x}
  in (n, m, k, l)
