-- A module type means what it meant where it was declared: `visuals`
-- names `palette.colour` from an import of its own file, which this file
-- does not see; including it here, and matching a module against it, still
-- works. M.colour true + 3 = 7 + 3; M.colour false + 3 = 0 + 3.
-- ==
-- input { true } output { 10u32 }
-- input { false } output { 3u32 }

import "sigscope/visuals"

module type both = {
  include visuals with cell = bool
  val extra : i32
}

module M : both = {
  type cell = bool
  def colour (b: bool) : u32 = if b then 7 else 0
  def extra = 3
}

entry main (b: bool) : u32 = M.colour b + u32.i32 M.extra
