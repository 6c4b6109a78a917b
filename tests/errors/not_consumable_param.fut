-- Updating a parameter that is not marked consuming (*).
-- ==
-- error: not-consumable
def main (xs: []i32) = xs with [0] = 1
