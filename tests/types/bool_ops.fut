-- Boolean values and operations; && and || short-circuit semantics give plain results.
-- ==
-- input { true false } output { false true true false }
def main (a: bool) (b: bool) = (a && b, a || b, a != b, a == b)
