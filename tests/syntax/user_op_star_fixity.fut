-- An operator starting with * binds like *, tighter than -.
-- ==
-- input { } output { 9 }
def (a: i32) *. (b: i32) : i32 = a - b
def main = 10 - 2 *. 1
