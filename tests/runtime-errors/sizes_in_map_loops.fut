-- A map whose function runs a loop over arrays is one kernel in the
-- compiled backends when its memory can be planned, every buffer sized
-- before the kernel's loop. A `replicate` of a size that is not the size
-- of an array that exists (here `k`, from the input) keeps the map
-- statement by statement, where a negative size is the same run-time
-- error as anywhere else; one of such a size (`n`, the length of `xs`)
-- is planned. Worked out by hand: each row is [x, …] (k or n copies),
-- plus 1 twice, summed: k·(x + 2) and n·(x + 2).
-- ==
-- entry: of_input
-- input { [1i64, 2i64] 3i64 } output { [9i64, 12i64] }
-- input { [1i64, 2i64] 0i64 } output { [0i64, 0i64] }
-- input { [1i64, 2i64] -1i64 } error: .
-- input { empty([0]i64) -1i64 } output { empty([0]i64) }

entry of_input [n] (xs: [n]i64) (k: i64) : [n]i64 =
  map (\x -> let acc = loop acc = replicate k x for _i < 2 do map (+ 1) acc
             in reduce (+) 0 acc)
      xs

-- ==
-- entry: of_size
-- input { [1i64, 2i64] } output { [6i64, 8i64] }
-- input { empty([0]i64) } output { empty([0]i64) }

entry of_size [n] (xs: [n]i64) : [n]i64 =
  map (\x -> let acc = loop acc = replicate n x for _i < 2 do map (+ 1) acc
             in reduce (+) 0 acc)
      xs
