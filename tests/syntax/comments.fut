-- Line comments may appear anywhere, including inside expressions.
-- ==
-- input { 4 } output { 9 }

-- | A doc comment before a definition.
def inc (x: i32) = x + 1 -- trailing comment

def main (x: i32) =
  -- comment before a let
  let y = x + -- comment in the middle of an expression
          4
  in inc y -- comment at the end
