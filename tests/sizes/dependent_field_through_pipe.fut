-- A record holding a dependent function (`(k: i64) -> [k]f64 -> f64`)
-- keeps its type through `|>` and a projection: `k` is bound by the
-- function type itself, not a size that escapes. 1.5 + 2.5 + 3 = 7.
-- ==
-- input { 3i64 } output { 7.0 }

type^ summer = {sum: (k: i64) -> [k]f64 -> f64}

def make (scale: f64) : (summer, i32) =
  ({sum = \(k: i64) (xs: [k]f64) -> scale * f64.sum xs}, 0)

def use (r: summer) (n: i64) = r.sum n (map (\i -> f64.i64 i + 1.5) (iota n) |> map (\x -> if x > 3 then 3 else x))

def main (n: i64) = make 1 |> (.0) |> \r -> use r n
