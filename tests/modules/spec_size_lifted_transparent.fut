-- A transparent size-lifted specification, `type~ t = []i32`: each use of
-- `t` is an array of its own size. In a parameter it is any size (an
-- implicit size parameter); in a value or result the module chooses it.
-- So `h (g x)` applies to an array of length x, `h x0` to one of length 2,
-- and a function of our own may take `M.t` too.
-- ==
-- input { 3 } output { 3 5 13 }
-- input { 0 } output { 0 5 7 }

module type S = {
  type~ t = []i32
  val g : i32 -> t
  val h : t -> i32
  val x0 : t
}

module M : S = {
  type~ t = []i32
  def g (n: i32) : t = map i32.i64 (iota (i64.i32 n))
  def h (y: t) : i32 = i32.sum y
  def x0 : t = [2, 3]
}

def twice_len (y: M.t) : i32 = 2 * i32.i64 (length y) + 3

-- twice_len (M.g n ++ M.x0) = 2 * (n + 2) + 3.
entry main (n: i32) : (i32, i32, i32) = (M.h (M.g n), M.h M.x0, twice_len (M.g n ++ M.x0))
