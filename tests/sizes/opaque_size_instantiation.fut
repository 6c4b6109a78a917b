-- Non-polynomial sizes in a definition's type (`[2 ** k]`, `[succ n]`,
-- `[add a b]`) are matched term by term at each use: the argument's size
-- of the same shape determines the size parameter.
-- ==
-- entry: halve_twice
-- input { [1, 2, 3, 4, 5, 6, 7, 8] } output { [10, 26] }
-- ==
-- entry: drop_pushed
-- input { [4, 5] } output { [4, 5] }
-- ==
-- entry: square_of_sums
-- input { 1i64 2i64 } output { [[3i64, 3i64, 3i64], [3i64, 3i64, 3i64], [3i64, 3i64, 3i64]] }

def halve [k] (xs: [2 ** k]i32) : [2 ** (k - 1)]i32 =
  tabulate (2 ** (k - 1)) (\i -> xs[2 * i] + xs[2 * i + 1])

entry halve_twice [n] (xs: [n]i32) : []i32 =
  let k = 3
  let ys = halve (xs :> [2 ** k]i32)
  in halve (ys :> [2 ** (k - 1)]i32)

def succ (x: i64) = x + 1

def pop [n] 't (xs: [succ n]t) : [n]t = xs[1:] :> [n]t

def push [n] 't (x: t) (xs: [n]t) : [succ n]t = [x] ++ xs :> [succ n]t

entry drop_pushed (xs: []i32) = pop (push 0 xs)

def add a b : i64 = a + b

def grid [a] [b] : [add a b][add b a]i64 = tabulate_2d (add a b) (add b a) (\_ _ -> add a b)

entry square_of_sums a b = copy grid : [add a b][add b a]i64
