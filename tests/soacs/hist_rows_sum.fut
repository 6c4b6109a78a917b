-- hist with array-valued buckets (map2 (+) over rows), as k-means'
-- centroid sums use it; large enough that the multicore backend runs it in
-- parallel with per-chunk partial histograms. Expected values from Python.
-- ==
-- input { 100000i64 } output { [[14286i64, 714264285i64, 57141i64], [14286i64, 714278571i64, 57145i64], [14286i64, 714292857i64, 57143i64], [14286i64, 714307143i64, 57146i64], [14286i64, 714321429i64, 57143i64], [14285i64, 714235715i64, 57144i64], [14285i64, 714250000i64, 57141i64]] }
-- input { 10i64 } output { [[2i64, 7i64, 5i64], [2i64, 9i64, 10i64], [2i64, 11i64, 8i64], [1i64, 3i64, 9i64], [1i64, 4i64, 5i64], [1i64, 5i64, 3i64], [1i64, 6i64, 3i64]] }
-- input { 0i64 } output { [[0i64, 0i64, 0i64], [0i64, 0i64, 0i64], [0i64, 0i64, 0i64], [0i64, 0i64, 0i64], [0i64, 0i64, 0i64], [0i64, 0i64, 0i64], [0i64, 0i64, 0i64]] }
def main (n: i64) : [7][3]i64 =
  hist (map2 (+)) (replicate 3 0) 7 (map (% 7) (iota n)) (map (\i -> [1, i, (i * i) % 11]) (iota n))
