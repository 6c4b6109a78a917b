module M = { def f (x: i32) = x * 2 type t = i32 }
entry main (x: M.t) : M.t = M.f x + i32.max x 1 + i32.abs (-x)
