-- A functor whose parameter has a size-lifted type may refine an unlifted
-- abstract type of its result with it (`with ctx = P.ctx`), and declare it
-- `type~` in its body: the refined type must equal `P.ctx`, whatever
-- liftedness it is declared with.
-- ==
-- input { 5 } output { 5 6 }

module type holder = {
  type ctx
  type box 'c
  val wrap : ctx -> box ctx
  val tag : box ctx -> i32
}

module mk (P: {type~ ctx}) : holder with ctx = P.ctx = {
  type~ ctx = P.ctx
  type box 'c = (i32, c)
  def wrap c = (1i32, c)
  def tag (t, _) = t
}

module units = mk {type ctx = ()}
module counts = mk {type ctx = i32}

entry main (x: i32) = (x, counts.tag (counts.wrap x) + units.tag (units.wrap ()) + 4)
