-- Recursive functions are outside the supported core language.
-- ==
-- error: not-supported-yet
def fact (n: i32) : i32 = if n <= 1 then 1 else n * fact (n - 1)
def main (n: i32) = fact n
