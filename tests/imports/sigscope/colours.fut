-- Helper of include_sig_scope.fut.
module palette = {
  type colour = u32
  def black : colour = 0
}
