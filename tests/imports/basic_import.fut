-- Importing definitions from a local file.
-- ==
-- input { 3 } output { 9 27 }
import "lib_math"
def main (x: i32) = (square x, cube x)
