-- Using an alias of a consumed array names the consumed variable, as Futhark does.
-- ==
-- error: use-after-consume.*Using variable "view", which aliases variable "buf", but this was consumed
def main (buf: *[]i32) =
  let view = buf
  let buf[0] = 7
  in view[1]
