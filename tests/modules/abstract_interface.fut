-- Values of abstract types, used only through their module's interface,
-- run with their definitions: a nullary abstract type, a parametric one
-- and one with a size parameter. incr twice from zero is 2; the box holds
-- (x, 2x); the vector of three copies of x sums to 3x.
-- ==
-- input { 5i64 } output { 2i64 10i64 15i64 }
-- input { -1i64 } output { 2i64 -2i64 -3i64 }

module type counter = {
  type t
  val zero : t
  val incr : t -> t
  val get : t -> i64
}

module counter : counter = {
  type t = i64
  def zero : t = 0
  def incr (c: t) : t = c + 1
  def get (c: t) : i64 = c
}

module type boxes = {
  type box 'a
  val pack 'a : a -> a -> box a
  val second 'a : box a -> a
}

module boxes : boxes = {
  type box 'a = {first: a, second: a}
  def pack 'a (x: a) (y: a) : box a = {first = x, second = y}
  def second 'a (b: box a) : a = b.second
}

module type vectors = {
  type vec [n]
  val fill : (n: i64) -> i64 -> vec [n]
  val sum [n] : vec [n] -> i64
}

module vectors : vectors = {
  type vec [n] = [n]i64
  def fill (n: i64) (x: i64) : vec [n] = replicate n x
  def sum [n] (v: vec [n]) : i64 = i64.sum v
}

def main (x: i64) =
  let c = counter.incr (counter.incr counter.zero)
  let b = boxes.pack x (2 * x)
  let v = vectors.fill 3 x
  in (counter.get c, boxes.second b, vectors.sum v)
