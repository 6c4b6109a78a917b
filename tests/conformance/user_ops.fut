-- User-defined operators, top-level constants and parameter patterns.
-- ==
-- input { 3 4 } output { 25 7 12 100 }
def (+^) (a: i32) (b: i32) = a * a + b * b
def (|*|) (a: i32, b: i32) (c: i32) = (a + b) * c
def scale = 4
def hundred : i32 = 100
def swap_add ((a, b): (i32, i32)) = b + a
def main (x: i32) (y: i32) = (x +^ y, swap_add (x, y), (1, 2) |*| scale, hundred)
