-- A failure inside called functions reports the failing index (line 9),
-- then each call on the way out: in `middle` (line 11), in `outer` (line 13)
-- and in the entry point (line 16), innermost first.
-- ==
-- input { [1, 2, 3] 2i64 } output { 3 }
-- input { [1, 2, 3] 5i64 }
-- error: backtrace.fut:9:.*backtrace.fut:11:.*backtrace.fut:13:.*backtrace.fut:16:

def inner (xs: []i32) (i: i64) = xs[i]

def middle (xs: []i32) (i: i64) = inner xs i + 0

def outer (xs: []i32) (i: i64) = middle xs i * 1

entry main (xs: []i32) (i: i64) =
  outer xs i
