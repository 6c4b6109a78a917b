-- The numeric modules are modules: they can be bound to names, passed to
-- functors expecting the prelude's `real`, `integral` or `numeric`, and
-- their operators are members (`f64.<=`, `(i32.+)`).
-- ==
-- input { [3.0, 4.0] } output { 5.0 7i32 true 3.0f32 12i64 }

module norm (R: real) = {
  def l2 [n] (xs: [n]R.t) : R.t = R.sqrt (R.sum (map (\x -> x R.* x) xs))
}

module popcount (I: integral) = {
  def bits (x: I.t) : i32 = I.popc x
}

module total (N: numeric) = {
  def of [n] (xs: [n]N.t) : N.t = reduce (N.+) (N.i32 0) xs
}

module F = f32
module n64 = norm f64
module pc = popcount i32
module ti = total i64

def main (xs: []f64) =
  ( n64.l2 xs
  , (i32.+) (pc.bits 7) 4
  , (f64.<=) xs[0] xs[1]
  , F.sqrt 9 : F.t
  , ti.of [5, 7]
  )
