-- A user-defined operator from an imported file, with its fixity.
-- ==
-- input { } output { 1203 }
import "lib_math"
def main = 12 <+> 1 + 2
