-- Importing a file in a subdirectory, which imports a file from this directory.
-- ==
-- input { [1, 2, 3] } output { 14 4 }
import "sub/helpers"
import "lib_math"
def main (xs: []i32) = (sum_of_squares xs, square 2)
