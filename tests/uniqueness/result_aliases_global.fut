-- A function may not return a top-level array without copying it.
-- ==
-- error: Function result aliases the free variable "table"

def table : []i32 = [3, 1, 2]

def pick (b: bool) = if b then table else [0, 0, 0]

def main (b: bool) = pick b
