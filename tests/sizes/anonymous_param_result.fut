-- A declared result `[]` that the body makes the size of a parameter's
-- anonymous size `[]` keeps that size: `mark` returns `[d]bool` for its
-- `[d]bool` argument, so the caller's `[k]` array stays `[k]`.
-- ==
-- input { [false, false, false, false] [2i64, 0, 9] }
-- output { [true, false, true, false] }

def mark (m: *[]bool) (is: []i64) : *[]bool =
  scatter m is (map (const true) is)

def main [k] (flags: *[k]bool) (is: []i64) : [k]bool =
  mark flags is
