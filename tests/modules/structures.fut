-- Structures: qualified names, nested modules, `local` (hidden but usable
-- inside), `open`, local open `M.(e)`, type members, and operators defined
-- in a module.
-- ==
-- input { 5 } output { 11 7 12 true 3 }

module counter = {
  type t = i32
  local def step : t = 2
  def next (x: t) : t = x + step
  module inner = {
    def triple (x: i32) = x * 3
  }
}

module vec = {
  type v = {x: i32, y: i32}
  def (+^) (a: v) (b: v) : v = {x = a.x + b.x, y = a.y + b.y}
  def zero : v = {x = 0, y = 0}
}

open counter.inner

def main (n: i32) =
  let a : counter.t = counter.next (counter.inner.triple n) - 6
  let b = counter.next n
  let c = triple 4
  let w = vec.((zero +^ {x = 1, y = 2}) +^ {x = 2, y = 1})
  in (a, b, c, w.x == w.y, w.x)
