-- Shadowing a name with a new let binding.
-- ==
-- input { 1 } output { 4 }
def main (x: i32) =
  let x = x + 1
  let x = x * 2
  in x
