-- Type-level equalities of sizes as values: `eq [n] [m]` is an empty
-- array whose inner dimensions are `n` and `m`, so `coerce` can take a
-- proof and reshape without a run-time check failing. The
-- definitions behind the specifications are plain `[]`: their element
-- type is the specification's, sizes included (`[a + b][b + a]()`), at
-- each use. A sum of three size variables is matched against a sum of
-- three sizes term by term, as written.
-- ==
-- entry: same
-- input { [1, 2] } output { [1, 2] }

-- ==
-- entry: swapped
-- input { [1, 2] [3] } output { [1, 2, 3] }
-- input { empty([0]i32) [3] } output { [3] }

-- ==
-- entry: swapped_back
-- input { [1, 2] [3] } output { [1, 2, 3] }

-- ==
-- entry: regrouped
-- input { [1] [2, 3] [4, 5, 6] } output { [1, 2, 3, 4, 5, 6] }

module meta : {
  type eq [n] [m]
  val coerce [n] [m] 't : eq [n] [m] -> [n]t -> [m]t
  val refl [n] : eq [n] [n]
  val comm [n] [m] : eq [n] [m] -> eq [m] [n]
  val plus_comm [a] [b] : eq [a + b] [b + a]
  val plus_assoc [a] [b] [c] : eq [(a + b) + c] [a + (b + c)]
} = {
  type eq [n] [m] = [0][n][m]()
  def coerce [n] [m] 't (_: eq [n] [m]) (a: [n]t) = a :> [m]t
  def refl = []
  def comm _ = []
  def plus_comm = []
  def plus_assoc = []
}

entry same [n] (xs: [n]i32) = meta.coerce meta.refl xs

entry swapped [n] [m] (xs: [n]i32) (ys: [m]i32) : [m + n]i32 =
  meta.coerce meta.plus_comm (xs ++ ys)

entry swapped_back [n] [m] (xs: [n]i32) (ys: [m]i32) : [n + m]i32 =
  meta.coerce (meta.comm meta.plus_comm) (xs ++ ys)

entry regrouped [n] [m] [l] (xs: [n]i32) (ys: [m]i32) (zs: [l]i32) : [(n + m) + l]i32 =
  let p: meta.eq [n + (m + l)] [(n + m) + l] = meta.comm meta.plus_assoc
  in meta.coerce p (xs ++ (ys ++ zs))
