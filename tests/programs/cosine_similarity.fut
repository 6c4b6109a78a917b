-- Cosine similarity between two vectors, and normalisation to unit length.
-- ==
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { 0.9746318461970762 [0.2672612419124244, 0.5345224838248488, 0.8017837257372732] }
def norm [n] (v: [n]f64) = f64.sqrt (f64.sum (map (\x -> x * x) v))

def main [n] (a: [n]f64) (b: [n]f64) =
  (f64.sum (map2 (*) a b) / (norm a * norm b), map (/ norm a) a)
