-- Unit values among an entry point's results have no external form, but a
-- case with no expected output only has to run without error, on every
-- backend (the results are never printed).
-- ==
-- input { 1f32 }
-- input { 2f32 }

def main (x: f32) = (x + 1, (), replicate 3 ())
