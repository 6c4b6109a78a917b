-- Passing a non-consumable parameter to a consuming function.
-- ==
-- error: not-consumable
def consume (xs: *[]i32) : *[]i32 = xs with [0] = 0
def main (xs: []i32) = consume xs
