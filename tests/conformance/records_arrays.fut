-- Arrays of records, record projection sections, sorting-free argmin.
-- ==
-- input { [1.0, 4.0, 2.0] [3.0, 0.5, 1.0] } output { [4.0, 4.5, 3.0] 2i64 }
type particle = {pos: f64, vel: f64}
def step (p: particle) : particle = p with pos = p.pos + p.vel
def main (ps: []f64) (vs: []f64) =
  let parts = map2 (\pos vel -> {pos, vel}) ps vs
  let moved = map step parts
  let positions = map (.pos) moved
  let (_, idx) = reduce (\(a, i) (b, j) -> if a <= b then (a, i) else (b, j))
                        (f64.inf, -1) (zip positions (indices positions))
  in (positions, idx)
