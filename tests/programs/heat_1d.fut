-- Explicit 1-d heat equation stencil for a number of steps; boundary cells stay fixed.
-- ==
-- input { 1 [0.0, 0.0, 100.0, 0.0, 0.0] } output { [0.0, 25.0, 50.0, 25.0, 0.0] }
-- input { 3 [0.0, 0.0, 100.0, 0.0, 0.0] } output { [0.0, 21.875, 31.25, 21.875, 0.0] }
-- input { 4 [10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 20.0] }
-- output { [10.0, 5.078125, 1.875, 1.171875, 3.6328125, 10.15625, 20.0] }
def step [n] (u: [n]f64) : [n]f64 =
  tabulate n (\i ->
    if i == 0 || i == n - 1 then u[i]
    else u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]))

def main [n] (steps: i32) (u: [n]f64) =
  loop u for _i < steps do step u
