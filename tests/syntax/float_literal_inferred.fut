-- An unsuffixed decimal literal takes the type required by its context.
-- ==
-- input { 2f32 } output { 3.5f32 }
def main (x: f32) = x + 1.5
