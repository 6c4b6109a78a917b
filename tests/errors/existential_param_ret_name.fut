-- The message names the misplaced existential size.
-- ==
-- error: existential-param-ret.*Existential size "len"
def make : i64 -> (b: bool) -> ?[len].[len]bool = \n b -> replicate n b
def main (n: i64) = make n true
