-- One anonymous size used twice through an abbreviation (`square []` is
-- `[d][d]`) must be one size in what the body returns.
-- ==
-- error: Function body does not have expected type.*"n\+1" and "n\+2" do not match

type square [n] 't = [n][n]t

def ext_square : i64 -> square [] i64 = \n -> tabulate_2d (n + 1) (n + 2) (\i j -> i + j)
