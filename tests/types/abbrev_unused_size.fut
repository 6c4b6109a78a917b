-- A size parameter of a type abbreviation must occur in its definition.
-- ==
-- error: Size parameter "\[n\]" unused

type grid [n] = i32

def main (g: grid [3]) = g
