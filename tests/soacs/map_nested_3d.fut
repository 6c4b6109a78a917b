-- Triply nested map, using the index of the outer dimension.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[[1, 2], [3, 4]], [[15, 16], [17, 18]]] }
def main [n] (xsss: [n][][]i32) =
  map2 (\i xss -> map (map (\x -> x + i32.i64 i * 10)) xss) (iota n) xsss
