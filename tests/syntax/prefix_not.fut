-- Prefix ! is logical negation on bool and bitwise complement on integers.
-- ==
-- input { true } output { false -1 250u8 }
def main (b: bool) = (!b, !0i32, !5u8)
