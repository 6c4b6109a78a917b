-- The parameters of `add` default to i32 (with Futhark's warning), so the
-- call with decimals is a type mismatch; the warning is shown with the error.
-- ==
-- error: type-mismatch(.|\n)*Warning\[ambiguous-type-defaulted\].*Defaulting ambiguous type to i32
def add a b = a + b
def main = add 1.5 2.5
