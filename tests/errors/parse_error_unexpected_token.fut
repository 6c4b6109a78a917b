-- A constructor in a sum type written without its `#`.
-- ==
-- error: parse-error.*Unexpected token: 'blue'; expected a constructor
type colour = #red | blue
def main (x: i32) = x
