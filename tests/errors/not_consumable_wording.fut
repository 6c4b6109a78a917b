-- Futhark's wording: "Consuming variable ..., which is not consumable."
-- ==
-- error: not-consumable.*Consuming variable "arr", which is not consumable
def main (arr: []f32) = arr with [0] = 1f32
