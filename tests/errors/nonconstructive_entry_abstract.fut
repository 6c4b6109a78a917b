-- A size given only to a type argument of an abstract type is not
-- constructive: the type's hidden definition may not use it.
-- ==
-- error: nonconstructive-entry.*\[m\].*only used non-constructively

module box : {
  type t 'a
  val mk 'a : a -> t a
  val get 'a : t a -> a
} = {
  type t 'a = a
  def mk x = x
  def get x = x
}

entry main [n] [m] (xs: [n]i32) (_: box.t ([m]i32)) : i64 = n + m + length xs
