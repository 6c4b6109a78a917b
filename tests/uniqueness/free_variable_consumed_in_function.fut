-- A local function may not update an array it does not own.
-- ==
-- error: Consuming variable "buf", which is not consumable

def main (buf: *[]i32) =
  let poke (i: i64) = let buf[i] = 0 in i
  in poke 1
