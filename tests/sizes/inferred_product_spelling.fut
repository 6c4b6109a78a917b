-- A definition whose inferred result size is a product with a size that
-- is not a polynomial (`flatten` of `i64.sum ks` rows of 2) keeps the
-- product's spelling when used: `rows ks` has `[i64.sum ks * 2]` rows,
-- which `unflatten` at `[p * q]` splits as p = i64.sum ks and q = 2, as
-- Futhark unifies the size expressions; written the other way round
-- (`2 * i64.sum ks`), p = 2. At ks = [1, 2], i64.sum ks = 3: the rows r·2
-- + c of the 3×2 table, then of the 2×3 table r·3 + c.
-- ==
-- entry: main
-- input { [1i64, 2i64] }
-- output { [[0i64, 1i64], [2i64, 3i64], [4i64, 5i64]] [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }

def split [p] [q] (xs: [p * q]i64) : [p][q]i64 = unflatten xs

def tall [n] (ks: [n]i64) = flatten (tabulate_2d (i64.sum ks) 2 (\r c -> r * 2 + c))

def wide [n] (ks: [n]i64) = flatten (tabulate_2d 2 (i64.sum ks) (\r c -> r * i64.sum ks + c))

entry main [n] (ks: [n]i64) : ([][]i64, [][]i64) = (split (tall ks), split (wide ks))
