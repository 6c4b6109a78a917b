-- hist with 2x2 matrix buckets combined by `map2 (map2 (+))`, large
-- enough for the multicore backend's per-chunk partial histograms, whose
-- merge is not a kernel (buckets of two dimensions) and runs statement by
-- statement. Bucket b sums [[1, i], [i mod 5, -i]] over the i with
-- i mod 3 = b. Expected values by hand from sums of arithmetic series:
-- for n = 30000 each bucket has 10000 elements; bucket 0 sums i = 3t for
-- t < 10000 (149985000), bucket 1 adds 10000 to that, bucket 2 20000;
-- i mod 5 runs through each residue equally in every bucket (2000 times
-- each, sum 20000).
-- ==
-- input { 30000i64 }
-- output { [[[10000i64, 149985000i64], [20000i64, -149985000i64]],
--           [[10000i64, 149995000i64], [20000i64, -149995000i64]],
--           [[10000i64, 150005000i64], [20000i64, -150005000i64]]] }
-- input { 4i64 }
-- output { [[[2i64, 3i64], [3i64, -3i64]], [[1i64, 1i64], [1i64, -1i64]], [[1i64, 2i64], [2i64, -2i64]]] }
def main (n: i64) : [3][2][2]i64 =
  hist (map2 (map2 (+))) [[0, 0], [0, 0]] 3 (map (% 3) (iota n)) (map (\i -> [[1, i], [i % 5, -i]]) (iota n))
