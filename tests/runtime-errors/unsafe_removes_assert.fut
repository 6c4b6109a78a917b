-- `#[unsafe]` removes assertions from compiled code, as in Futhark (the
-- interpreter, the reference, keeps them, so that case is compiled-only).
-- ==
-- input { 2 } output { 1 }
-- compiled no_interpreter input { 3 } output { 1 }

def main (x: i32) = #[unsafe] assert (x % 2 == 0) (x / 2)
