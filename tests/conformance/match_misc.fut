-- match with negative literals, ascriptions, bools and nested sum payloads.
-- ==
-- input { -1 } output { 100 }
-- input { 4 } output { 16 }
-- input { 0 } output { 7 }
type op = #neg | #sq | #const i32
type~ instr = #apply op | #seq [](i32)
def decode (x: i32) : instr =
  match x
  case -1 -> #apply (#const 100)
  case 0 -> #seq [3, 4]
  case _ -> #apply #sq
def run (x: i32) (ins: instr) : i32 =
  match ins
  case #apply #neg -> -x
  case #apply #sq -> x * x
  case #apply (#const c) -> c
  case #seq (ys: []i32) -> i32.sum ys
def main (x: i32) = run x (decode x)
