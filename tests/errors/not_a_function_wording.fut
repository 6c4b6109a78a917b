-- Futhark's wording for applying a non-function.
-- ==
-- error: not-a-function.*Cannot apply expression as function
def main (b: bool) = b true
