-- An expression ascribed a type it does not have.
-- ==
-- error: type-mismatch.*Expression does not have expected type
def main [n] (grid: [n][n]f32) = grid : [n]f32
