-- Consuming a variable free in an anonymous function.
-- ==
-- error: not-consumable.*Consuming variable "acc"
def main (acc: *[]i32) (ks: []i64) = map (\k -> let acc[k] = 0 in acc[k]) ks
