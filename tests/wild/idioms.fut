-- Assorted everyday idioms: string literals, #[unsafe], copy, `with`
-- updates in a loop, `**` on floats, `(.1)` sections on arrays of
-- tuples, `loop x for` without an initial value, tabulate_2d and
-- transpose, `let a[i] = v`, and conversions in every direction.
-- ==
-- input { 4i64 }
-- output { 5i64 104u8 [0i32, 1, 4, 9] [[0i64, 1, 2, 3], [1i64, 2, 3, 4], [2i64, 3, 4, 5], [3i64, 4, 5, 6]] 8.0f64 [2.5f32, 3.5f32] 42i32 [1i32, 2, 3, 100] 6i64 }

def squares (n: i64) : [n]i32 =
  let a = replicate n 0i32
  in loop a for i < n do a with [i] = i32.i64 (i * i)

def main (n: i64) =
  let s = "hello"
  let first = #[unsafe] s[0]
  let sq = squares n
  let grid = tabulate_2d n n (\i j -> i + j)
  let tgrid = transpose grid
  let p = f64.i32 2 ** 3
  let pairs = zip [1f32, 2f32] [2.5f32, 3.5f32]
  let seconds = map (.1) pairs
  let x = 40
  let x = loop x for _i < 2 do x + 1
  let ys = copy [1i32, 2, 3, 4]
  let ys[3] = 100
  let cnt = i64.f32 (f32.i64 (length s) + 1.0)
  in (length s, first, sq, tgrid, p, seconds, x, ys, cnt)
