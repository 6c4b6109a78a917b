-- `[2*?s]` against `[2*s]`, and `[cols*?r]` against `[cols*rows]`: the
-- unknown is solved by dividing out the known factor.
-- ==
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] }
-- output { [[1, 2], [3, 4], [5, 6]] [[1, 2, 3], [4, 5, 6]] }

def pairs [s] (xs: [s * 2]i32) : [s][2]i32 = unflatten xs

def rows_of [cols] [rows] (_: [cols]bool) (xs: [cols * rows]i32) : [cols][rows]i32 = unflatten xs

def main (c: i64) (r: i64) (xs: []i32) =
  ( pairs (xs :> [r * 2]i32)
  , rows_of (replicate c false) (xs :> [c * r]i32)
  )
