-- Function composition with a user-defined higher-order function and the prelude's >->.
-- ==
-- input { 3 } output { 8 7 }
def compose 'a 'b 'c (g: b -> c) (f: a -> b) : a -> c = \x -> g (f x)
def main (x: i32) =
  let h = compose (+ 2) (* 2)
  let k = (* 2) >-> (+ 1)
  in (h x, k x)
