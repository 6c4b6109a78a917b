-- The array consumed in one branch of an if cannot be used after it.
-- ==
-- error: use-after-consume
def main (n: i64) =
  let arr = replicate n 0i32
  let b = if n > 1 then arr with [1] = 1 else arr
  in (b, arr[0])
