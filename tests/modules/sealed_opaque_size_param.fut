-- Through a sealed functor instance, a size parameter that only a
-- non-polynomial size determines (`n` in `[(n-1)/bits+1]`) is still
-- passed to the definition: the specification's size parameters are
-- mapped to the definition's. 17 with 8-bit blocks: 3 blocks, 1703.
-- ==
-- input { 17i64 } output { 1703i64 }
-- input { 8i64 } output { 801i64 }
-- input { 33i64 } output { 3305i64 }

module type blocks = {
  type block
  val bits : i64
  val empty : (n: i64) -> [(n-1)/bits+1]block
  val count [n] : [(n-1)/bits+1]block -> i64
}

module mk_blocks (I: integral) : blocks = {
  type block = I.t
  def bits = i64.i32 I.num_bits
  def empty (n: i64) : [(n-1)/bits+1]I.t = replicate ((n - 1) / bits + 1) (I.i64 0)
  def count [n] (s: [(n-1)/bits+1]I.t) : i64 = n * 100 + length s
}

module b8 = mk_blocks u8

def main (c: i64) = b8.count (b8.empty c)
