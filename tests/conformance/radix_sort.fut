-- A radix sort on u32 keys, one bit at a time, using scan and scatter.
-- ==
-- input { [5u32, 3u32, 9u32, 0u32, 3u32, 12u32] }
-- output { [0u32, 3u32, 3u32, 5u32, 9u32, 12u32] }
def radix_step [n] (xs: [n]u32) (b: i32) : [n]u32 =
  let bits = map (\x -> i64.u32 ((x >> u32.i32 b) & 1)) xs
  let zeros_before = scan (+) 0 (map (1 -) bits)
  let num_zeros = if n == 0 then 0 else last zeros_before
  let ones_before = scan (+) 0 bits
  let idx = map3 (\bit z o -> if bit == 0 then z - 1 else num_zeros + o - 1)
                 bits zeros_before ones_before
  in scatter (copy xs) idx xs
def main (xs: []u32) = loop xs for b < 32 do radix_step xs b
