-- A module type promises a function that only reads its argument; the
-- implementation updates it in place.
-- ==
-- error: module-mismatch.*val put

module type sink = { val put [n] : [n]i32 -> i32 }

module s : sink = {
  def put [n] (xs: *[n]i32) = let xs[0] = 1 in xs[0]
}

def main (xs: []i32) = s.put xs
