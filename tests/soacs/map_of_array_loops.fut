-- A map whose function runs loops over arrays: the state of each row is
-- copied, updated in place element by element, mapped over and carried
-- to the next iteration. The compiled backends make one kernel of such a
-- map, with the arrays in buffers of its own (`ogham_imp::lower::arrays`);
-- a loop whose parameters trade places every iteration (`swaps`) cannot
-- be planned so and runs statement by statement.
--
-- Worked out by hand (and checked with a short Python loop): in `rows`,
-- step t makes next[i] = 2 acc[i] + acc[m-1-i] + t, then adds 1; for the
-- row [1, 2, 3]: [6, 7, 8], [22, 23, 24], [71, 72, 73]. In `swaps`, after
-- three steps a = b₀ + 0 + 2 = 10·row + 2 and b = row + 1, so a - b is
-- 9·row + 1.
-- ==
-- entry: rows
-- input { [[1i64, 2i64, 3i64], [0i64, -1i64, 5i64], [10i64, 0i64, 0i64]] }
-- output { [[71i64, 72i64, 73i64], [83i64, -9i64, 88i64], [158i64, 18i64, 148i64]] }
-- input { empty([0][4]i64) }
-- output { empty([0][4]i64) }

entry rows [n][m] (xs: [n][m]i64) : [n][m]i64 =
  map (\row ->
         loop acc = copy row for t < 3 do
           let next = copy acc
           let next = loop next for i < m do
                        next with [i] = next[i] * 2 + acc[m - 1 - i] + t
           in map (+ 1) next)
      xs

-- ==
-- entry: swaps
-- input { [[1i64, 2i64, 3i64], [0i64, -1i64, 5i64], [10i64, 0i64, 0i64]] }
-- output { [[10i64, 19i64, 28i64], [1i64, -8i64, 46i64], [91i64, 1i64, 1i64]] }

entry swaps [n][m] (xs: [n][m]i64) : [n][m]i64 =
  map (\row ->
         let (a, b) = loop (a, b) = (copy row, map (* 10) row) for t < 3 do (map (+ t) b, a)
         in map2 (-) a b)
      xs

-- A loop whose initial value is still used after it (`a`, not consumed:
-- the loop makes a new array every step) must not run in that value's
-- memory; a `while` loop carries an array and a counter. For the row
-- [1, 2, 3]: a = [2, 4, 6], r = a + 3 = [5, 7, 9], r + a = [7, 11, 15];
-- the while loop adds 0, 1 and 2 to [1, 2, 3]: [4, 5, 6], plus a.
-- ==
-- entry: kept
-- input { [[1i64, 2i64, 3i64], [0i64, -1i64, 5i64]] }
-- output { [[7i64, 11i64, 15i64], [3i64, -1i64, 23i64]]
--          [[6i64, 9i64, 12i64], [3i64, 0i64, 18i64]] }

entry kept [n][m] (xs: [n][m]i64) : ([n][m]i64, [n][m]i64) =
  unzip (map (\row ->
                let a = map (* 2) row
                let r = loop p = a for _i < 3 do map (+ 1) p
                let (w, _) = loop (p, k) = (copy row, 0) while k < 3 do (map (+ k) p, k + 1)
                in (map2 (+) r a, map2 (+) w a))
             xs)
