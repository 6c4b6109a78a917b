-- Inlining keeps backtraces: `take` (a prelude function) and `firsts` are
-- small and inlined into the entry point, yet a failing slice reports the
-- slice in the prelude, then the call of `take` in `firsts` (line 10), then
-- the call of `firsts` (line 13), as if they had stayed calls.
-- ==
-- input { [1, 2, 3] 2i64 } output { [2, 3] }
-- input { [1, 2, 3] 5i64 }
-- error: Index \[0:5\] out of bounds.*prelude.fut:.*backtrace_inlined.fut:10:.*backtrace_inlined.fut:13:

def firsts (n: i64) (xs: []i32) = take n xs

entry main (xs: []i32) (n: i64) =
  let ys = firsts n xs
  in map (+1) ys
