-- `assert c n` and `#[unsafe] n` denote the size `n` in a size position.
-- ==
-- entry: checked
-- input { 12i64 } output { 12i64 }
-- input { 3i64 } error: Assertion is false
-- ==
-- entry: attributed
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] }

entry checked (n: i64) : i64 = length (iota (assert (n > 10) n) : [n]i64)

entry attributed (n: i64) : [n]i64 = iota (#[unsafe] n)
