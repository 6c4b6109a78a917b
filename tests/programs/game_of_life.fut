-- Conway's game of life on a bounded grid (cells outside are dead), run for a number of steps.
-- ==
-- input { 1 [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] }
-- output { [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] }
-- input { 2 [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] }
-- output { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] }
-- input { 4 [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] }
-- output { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]] }
def get [n][m] (g: [n][m]i32) (i: i64) (j: i64) : i32 =
  if i >= 0 && i < n && j >= 0 && j < m then g[i, j] else 0

def step [n][m] (g: [n][m]i32) : [n][m]i32 =
  tabulate_2d n m (\i j ->
    let nb = get g (i - 1) (j - 1) + get g (i - 1) j + get g (i - 1) (j + 1)
           + get g i (j - 1) + get g i (j + 1)
           + get g (i + 1) (j - 1) + get g (i + 1) j + get g (i + 1) (j + 1)
    in if nb == 3 || (nb == 2 && g[i, j] == 1) then 1 else 0)

def main [n][m] (steps: i32) (g: [n][m]i32) = loop g for _i < steps do step g
