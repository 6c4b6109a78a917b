-- Helper of include_sig_scope.fut: a module type naming a module of
-- an import that importers of this file do not see.
import "colours"

module type visuals = {
  type cell
  val colour : cell -> palette.colour
}
