-- An anonymous size used only in a function's parameter type.
-- ==
-- error: anonymous-nonconstructive.*not used constructively
type^ pred = []bool -> bool
def main (b: bool) = b
