-- A loop parameter declared without `*` cannot be updated in place.
-- ==
-- error: Consuming variable "acc", which is not consumable

def main (n: i64) =
  loop (acc: []i64) = iota n for i < n do acc with [i] = 0
