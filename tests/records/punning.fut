-- Field punning: {x, y} means {x = x, y = y}.
-- ==
-- input { 5 6 } output { 11 }
def main (x: i32) (y: i32) =
  let r = {x, y}
  in r.x + r.y
