-- A field projected from an array element that is a number.
-- ==
-- error: type-mismatch.*expected a record type with a field `name`, but got `f32`. Cannot unify record type with fields \{name\} with type `f32`
def main (xs: []f32) = (.[1].name) xs
