-- The local function reads `arr`, which is updated before the call.
-- ==
-- error: Using variable "peek", which aliases variable "arr", but this was consumed

def main (k: i64) (arr: *[]i64) =
  let peek (j: i64) = arr[j] + k
  let arr[0] = 1
  in peek 0
