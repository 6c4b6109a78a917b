-- One anonymous size used twice through an abbreviation (`square []` is
-- `[d][d]`) must be one size in what the body returns, and that size comes
-- from outside the lambda: linking it to the lambda's `n + 1`, which names
-- the lambda's own parameter, is already out of scope, and that is the
-- error (as Futhark reports it), not the later mismatch of `n + 1` and
-- `n + 2`. `tests/sizes/lambda_result_size_existential.fut` has the forms
-- that fit.
-- ==
-- error: scope-violation.*"n" is a parameter

type square [n] 't = [n][n]t

def ext_square : i64 -> square [] i64 = \n -> tabulate_2d (n + 1) (n + 2) (\i j -> i + j)
