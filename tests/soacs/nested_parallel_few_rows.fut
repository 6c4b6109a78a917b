-- Fewer rows than threads: the multicore backend runs the rows one after
-- another, statement by statement, and the SOACs inside each row in
-- parallel (one row on two threads); with more rows, the rows in
-- parallel. Every value is an integer, so the sums are exact in any
-- order; the expected values were computed independently (Python, with
-- x[i][j] = ((i+1)·j) mod 1001 - 500).
-- ==
-- entry: row_sums
-- input { 1i64 1000000i64 } output { [-500i64] }
-- input { 3i64 200000i64 } output { [-80100i64, -60000i64, -39900i64] }
-- input { 0i64 5i64 } output { empty([0]i64) }
-- input { 1i64 0i64 } output { [0i64] }
-- entry: total
-- input { 1i64 1000000i64 } output { -500i64 }
-- input { 3i64 200000i64 } output { -180000i64 }
-- entry: scans
-- input { 1i64 1000000i64 } output { [-125749i64] }
-- input { 3i64 200000i64 } output { [-124749i64, -99699i64, -74649i64] }
-- entry: loops
-- input { 1i64 1000000i64 } output { [750750000i64] }
-- input { 3i64 200000i64 } output { [150059700i64, 150120000i64, 150170202i64] }
-- entry: hists
-- input { 1i64 1000000i64 }
-- output { [[0i64, 142857i64, 285714i64, 428571i64, -429071i64, -285714i64, -142857i64]] }
-- input { 3i64 200000i64 }
-- output { [[-11571i64, 17000i64, 45571i64, 74142i64, -96986i64, -68414i64, -39842i64],
--           [-8729i64, 20144i64, 48413i64, 77187i64, -94144i64, -65871i64, -37000i64],
--           [-5586i64, 22684i64, 51458i64, 80130i64, -91302i64, -63029i64, -34255i64]] }

def rows (n: i64) (m: i64) : [n][m]i64 = tabulate_2d n m (\i j -> ((i + 1) * j) % 1001 - 500)

entry row_sums (n: i64) (m: i64) = map i64.sum (rows n m)

entry total (n: i64) (m: i64) = i64.sum (map i64.sum (rows n m))

entry scans (n: i64) (m: i64) =
  map (\r -> let s = scan (+) 0 r in s[m - 1] + s[m / 2]) (rows n m)

entry loops (n: i64) (m: i64) =
  map (\r -> loop acc = 0 for k < 3 do acc + i64.sum (map (\v -> i64.max (v * k) (-v)) r)) (rows n m)

entry hists (n: i64) (m: i64) =
  map (\r -> hist (+) 0 7 (map (% 7) r) r) (rows n m)
