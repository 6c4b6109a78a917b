-- A module that lacks a value its module type specifies is rejected.
-- ==
-- error: module-mismatch

module type has_f = { val f: i32 -> i32 }

module m : has_f = {
  def g (x: i32) = x
}

def main (x: i32) = m.g x
