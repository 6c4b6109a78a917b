-- A branch returning a parameter of anonymous size, the other an array of
-- another size (a constant, one computed from the parameter): the
-- conditional's size is existential, and the parameter keeps its own size
-- (callers may pass any length).
-- ==
-- entry: grow
-- input { true [1, 2, 3] } output { 4i64 }
-- input { false [1, 2, 3] } output { 3i64 }
-- input { true empty([0]i32) } output { 1i64 }
def grow_or_keep (b: bool) (s: []i32) : []i32 =
  if b then replicate (length s + 1) 0 else s

entry grow (b: bool) (s: []i32) = length (grow_or_keep b s)

-- ==
-- entry: fixed
-- input { true [1, 2, 3] } output { 4i64 }
-- input { false [1, 2, 3] } output { 3i64 }
-- input { true [1] } output { 4i64 }
type~ outer = {arr: []i32, seed: i32}

def four_or_keep (b: bool) (s: outer) : outer =
  if b then {arr = replicate 4 0, seed = s.seed} else s

entry fixed (b: bool) (s: []i32) = length (four_or_keep b {arr = s, seed = 0}).arr
