-- A transparent specification that names an abstract type of the same
-- module type (`type u = t`, or an `include … with cell = cell` that ties
-- two included signatures together) stays abstract after sealing: the
-- sealed module's `u` is its abstract `t`, not the implementation's type.
-- So the sealed module matches each included signature again, and can be
-- passed to a functor that asks for both with the same type.
-- ==
-- input { 5i8 } output { 11 16 8 }

module type rules = { type cell val value : cell -> i32 val make : i8 -> cell }
module type visuals = { type cell val colour : cell -> i32 }
module type both = { include rules include visuals with cell = cell }

module q : both = {
  type cell = i8
  def value (c: cell) = i32.i8 c * 2
  def make (x: i8) : cell = x
  def colour (c: cell) = i32.i8 c + 1
}

-- Sealing again with only one of the included signatures.
module r : rules = q

module gen (R: rules) (V: visuals with cell = R.cell) = {
  def score (c: R.cell) = R.value c + V.colour c - 1
}

module g = gen q q

module type pair = { type t type u = t val mk : i32 -> u val get : t -> i32 }
module p : pair = { type t = i32 type u = i32 def mk (x: i32) = x + 1 def get (x: t) = x * 2 }

-- value 5 = 10, colour 5 = 6: 10 + 6 - 1 - 4 = 11; r.value (make 8) = 16;
-- p.get (p.mk 3) = (3 + 1) * 2 = 8.
entry main (x: i8) = (g.score (q.make x) - 4, r.value (r.make (x + 3)), p.get (p.mk 3))
