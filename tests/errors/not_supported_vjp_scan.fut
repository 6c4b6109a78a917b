-- Reverse mode has the rule for scan (+) only so far: differentiating a
-- scan with another operator is an error naming the construct, not a
-- wrong adjoint.
-- ==
-- error: not-supported-yet
def main (xs: []f64) = vjp (\xs -> scan (*) 1 xs) xs (copy xs)
