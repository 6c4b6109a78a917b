-- `xs[:e]` has size `e` whatever expression `e` is (Futhark's rule), so
-- two slices with the same bound have the same size: they zip, and a
-- function taking [n] and [m][n] accepts them. For k = 2, a = [1,2,3]:
-- map2 (+) [1,2] [1,2] = [2,4]; the rows of b cut to 2 columns dotted
-- with [1,2]: [1*1+2*2, 4*1+5*2] = [5, 14].
-- ==
-- input { 2 [1, 2, 3] [[1, 2, 3], [4, 5, 6]] } output { [2, 4] [5, 14] }
-- input { 0 [1, 2, 3] [[1, 2, 3], [4, 5, 6]] } output { empty([0]i32) [0, 0] }

def dots [m] [n] (v: [n]i32) (rows: [m][n]i32) : [m]i32 =
  map (\r -> i32.sum (map2 (*) v r)) rows

entry main (k: i32) (a: []i32) (b: [][]i32) : ([]i32, []i32) =
  let x = a[:i64.i32 k]
  let y = a[:i64.i32 k]
  in (map2 (+) x y, dots a[:i64.i32 k] b[:, :i64.i32 k])
