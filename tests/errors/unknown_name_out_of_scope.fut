-- A let-bound name is not visible outside its body.
-- ==
-- error: unknown-name
def main (x: i32) =
  let a = (let b = x + 1 in b)
  in a + b
