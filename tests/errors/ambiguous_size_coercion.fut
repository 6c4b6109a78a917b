-- A coercion does not say what size the coerced expression itself has: a
-- constructor with no payload leaves the size of the other constructor's
-- payload undetermined.
-- ==
-- error: ambiguous-size.*Ambiguous size.*size coercion

type box 't = #full t | #empty

def main (n: i64) =
  let b = #empty :> box ([3]i32)
  in match b case #full xs -> length xs + n case #empty -> n
