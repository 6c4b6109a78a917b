-- The returned function's parameter has a size that is computed inside
-- `g` (which branch is taken), so no caller can know it.
-- ==
-- error: unknown-param-def

def g (b: bool) =
  let m: i64 = if b then 1 else 2
  in \(xs: [m]f32) -> xs[0]

def main (b: bool) = g b [1f32]
