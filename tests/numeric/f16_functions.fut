-- f16 math functions and constants.
-- ==
-- input { 4f16 } output { 2f16 1.386f16 f16.inf 3.1416f16 4f16 }
def main (x: f16) = (f16.sqrt x, f16.log x, x / 0, f16.pi, f16.abs (-x))
