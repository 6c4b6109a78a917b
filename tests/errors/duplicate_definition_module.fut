-- A module body may not define one name twice either.
-- ==
-- error: duplicate-definition.*"step"
module walker = {
  def step (x: i32) = x + 1
  def step (x: i32) = x + 2
}
def main (x: i32) = walker.step x
