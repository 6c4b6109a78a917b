-- An entry point cannot take a function argument.
-- ==
-- error: higher-order-entry
entry apply (f: i32 -> i32) (x: i32) : i32 = f x
