-- A size-lifted abstract type given to `copy`, whose type parameter is
-- unlifted: Futhark's wording says the type cannot be an array element.
-- ==
-- error: lifted-instantiation.*Type "M.t" is lifted and cannot be an array element
module M : { type~ t val mk : i64 -> t } = {
  type~ t = []i32
  def mk n = replicate n 0i32
}
def main (n: i64) = let _ = copy (M.mk n) in n
