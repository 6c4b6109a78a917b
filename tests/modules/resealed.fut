-- A sealed module sealed again, and a polymorphic value seen through two
-- module types: the values still reach their definitions. pair x builds
-- (x, x+1), so the result is (x+1, x).
-- ==
-- input { 7 } output { 8 7 }

module type pairs = {
  type p
  val pair : i32 -> p
  val swap : p -> p
  val parts : p -> (i32, i32)
}

module once : pairs = {
  type p = (i32, i32)
  def pair (x: i32) : p = (x, x + 1)
  def swap ((a, b): p) : p = (b, a)
  def parts (q: p) : (i32, i32) = q
}

module twice : pairs = once

module type ident = {
  val id 'a : a -> a
}

module ident : ident = { def id 'b (x: b) : b = x }
module ident2 : ident = ident

def main (x: i32) = twice.parts (ident2.id (twice.swap (twice.pair x)))
