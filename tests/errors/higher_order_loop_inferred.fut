-- The loop parameter's type is only known to be a function once `g 1` is
-- checked, after the loop.
-- ==
-- error: higher-order-loop.*a loop parameter may not be of function type

def f g = (loop h = g for i < 3 do h, g 1i32)

entry main (x: i32) = (f (\(y: i32) -> y + x)).1 + 0
