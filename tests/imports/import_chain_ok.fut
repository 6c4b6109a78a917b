-- Names of a directly imported file, and those a file re-exports with
-- `open import`, are in scope; `middle` uses `base` itself.
-- ==
-- input { 2 } output { 18 6 }

import "chain/middle"
import "chain/reexport"

def main (x: i32) : (i32, i32) = (nine_times x, triple x)
