-- LSD radix sort on u32, one bit per pass, using scan and scatter (a stable partition per bit).
-- ==
-- input { [5u32, 3u32, 9u32, 1u32, 3u32, 0u32, 4294967295u32, 8u32] }
-- output { [0u32, 1u32, 3u32, 3u32, 5u32, 8u32, 9u32, 4294967295u32] }
-- input { empty([0]u32) } output { empty([0]u32) }
def radix_pass [n] (b: i32) (xs: [n]u32) : [n]u32 =
  let bits = map (\x -> i64.u32 ((x >>> u32.i32 b) & 1)) xs
  let zeros = map (1 -) bits
  let num_zeros = i64.sum zeros
  let zero_pos = map2 (-) (scan (+) 0 zeros) zeros
  let one_pos = map2 (-) (scan (+) 0 bits) bits
  let dest = map3 (\bit zp op -> if bit == 0 then zp else num_zeros + op) bits zero_pos one_pos
  in scatter (copy xs) dest xs

def main [n] (xs: [n]u32) : [n]u32 =
  loop xs for b < 32 do radix_pass b xs
