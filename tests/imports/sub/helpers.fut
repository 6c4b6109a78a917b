-- Helper in a subdirectory that itself imports a file from the parent directory.
import "../lib_math"

def sum_of_squares [n] (xs: [n]i32) : i32 = i32.sum (map square xs)
