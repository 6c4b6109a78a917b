-- A `let` without `in`, followed by the next declaration.
-- ==
-- error: parse-error.*Unexpected "def" - missing "in"\?
def f (x: i32) =
  let y = x + 1

def main (x: i32) = f x
