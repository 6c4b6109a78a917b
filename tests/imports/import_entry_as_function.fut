-- An `entry` in an imported file is callable as an ordinary function.
-- ==
-- input { 5 } output { 1005 }
import "lib_math"
def main (x: i32) = lib_entry x
