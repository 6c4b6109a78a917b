-- Outside the module, `id` has only the type its specification gives.
-- ==
-- error: type-mismatch

module m : { val id: i32 -> i32 } = {
  def id 'a (x: a) = x
}

def main = m.id 1.5f32
