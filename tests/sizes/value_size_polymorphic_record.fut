-- A value whose type has a size nothing determines is polymorphic in it,
-- wherever the size is (here inside a record of functions): each use
-- instantiates it, so `total` applies to arrays of different sizes.
-- ==
-- input { [1f32, 2f32] [3f32] } output { 6f32 }

def wrap 'i 'o (f: i -> o) : {run: i -> o} = {run = f}

def total =
  let prop [n] (is: [n]f32) = f32.sum is
  in wrap prop

def main (xs: []f32) (ys: []f32) = total.run xs + total.run ys
