-- Without a tuning file, a tuning parameter takes its default, the
-- expression under `#[param(NAME)]`.
-- ==
-- input { 4i64 [1i64, 2i64] } output { 8i64 [3i64, 4i64] }

def main (x: i64) (ys: []i64) = (#[param(block)] x * 2, map (\y -> #[param(block)] y + 2) ys)
