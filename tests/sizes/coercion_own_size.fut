-- A coerced expression whose own type fixes its sizes (an array, a sum
-- type given by an annotation) needs nothing more.
-- ==
-- input { 3i64 } output { [0i32, 1i32, 2i32] 2i64 }

type box 't = #full t | #empty

def main (n: i64) : ([3]i32, i64) =
  let xs = map i32.i64 (iota n) :> [3]i32
  let e: box ([n]i64) = #empty
  let b = e :> box ([3]i64)
  in (xs, match b case #full ys -> length ys case #empty -> 2)
