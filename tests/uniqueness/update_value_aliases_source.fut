-- The new row is a row of the array being updated.
-- ==
-- error: in-place-alias.*might alias update value

def main (m: *[][]i32) = m with [1] = m[0]
