-- A consumed loop parameter's new value may not alias a variable bound
-- outside the loop: the next iteration would update that variable.
-- ==
-- error: Return value for consuming loop parameter "acc" aliases "other"

def main (n: i64) =
  let other = iota n
  let xs =
    loop acc = iota n for _i < 3 do
      let acc[0] = 0
      in other
  in xs
