-- One size parameter name twice in a type abbreviation.
-- ==
-- error: duplicate-binding.*Size parameter "w"
type grid [w] [w] = [w][w]f32
def main (x: f32) = x
