-- The loop consumes its initial value `xs`; the body may not use `view`,
-- which aliases it.
-- ==
-- error: Loop body uses variable "view" \(or an alias\), but this is consumed by the initial loop argument

def main (xs: *[]i32) =
  let view = xs[1:]
  in loop ys = xs for i < 2 do ys with [i] = view[0]
