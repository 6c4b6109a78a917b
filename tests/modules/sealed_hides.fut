-- Ascription restricts a module to what its module type names.
-- ==
-- error: has no member `helper`

module type s = { val get: i32 }

module m : s = {
  def helper = 41i32
  def get = helper + 1
}

def main = m.helper
