-- Small functions, which the C backends inline: one returning its
-- argument, one returning an array whose size only it knows, a while loop,
-- constant arguments, and a call whose result is a size.
-- ==
-- input { [1, 2, 3, 4, 6] 9i64 }
-- output { [2, 4, 6] 3i64 [7, 7] [1, 1] 3i64 [1, 2, 3, 4, 6] }

def ident [n] (xs: [n]i32) : [n]i32 = xs
def evens [n] (xs: [n]i32) : []i32 = filter (\x -> x % 2 == 0) xs
def count_down (k: i64) : i64 = loop k while k > 3 do k - 2
def fill (n: i64) (x: i32) : []i32 = replicate n x

entry main (xs: []i32) (k: i64) =
  let ys = ident xs
  let zs = evens ys
  in (zs, count_down k, fill 2 7, fill (count_down 10) 1, length zs, ys)
