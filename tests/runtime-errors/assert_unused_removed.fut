-- An assertion lasts as long as the value it certifies is used, as in
-- Futhark: `let _ = assert c ()` checks nothing, an assertion whose
-- value is used checks before that value is computed (the index below
-- would fail too, later), and the certified value may be a record of
-- arrays that is then updated in place.
-- ==
-- entry: unused
-- input { -3 } output { -2 }
-- input { 3 } output { 4 }
-- ==
-- entry: unused_value
-- input { -3 } output { -2 }
-- ==
-- entry: used
-- input { 5i64 [1,2,3] } error: Assertion is false: i < 3
-- input { 1i64 [1,2,3] } output { 2 }
-- ==
-- entry: record
-- input { [1,2,3] } output { [9,2,3] 3i64 }
-- input { empty([0]i32) } error: Assertion is false: length xs > 0
-- ==
-- entry: closure
-- input { 3 } error: Assertion is false
-- input { 4 } output { 2 }

entry unused (x: i32) = let _ = assert (x > 0) () in x + 1

entry unused_value (x: i32) = let _ = assert (x > 0) (x * 2) in x + 1

entry used (i: i64) (xs: []i32) = assert (i < 3) xs[i]

entry record (xs: *[]i32) =
  let r = assert (length xs > 0) {a = xs, n = length xs}
  let n = r.n
  let a = r.a with [0] = 9
  in (a, n)

-- A function's closure keeps its assertion.
entry closure (x: i32) = let f = assert (x % 2 == 0) (x /) in f 2
