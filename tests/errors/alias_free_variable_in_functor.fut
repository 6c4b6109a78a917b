-- A functor's own top-level array is still a free variable its
-- functions may not return: the generic check of the body rejects it,
-- whether or not the functor is applied.
-- ==
-- error: alias-free-variable

module table (M: {val n: i64}) = {
  def entries : [3]i64 = [M.n, 2, 3]
  def get (_: i32) = entries
}

module t = table { def n = 1i64 }

entry main (x: i32) = t.get x
