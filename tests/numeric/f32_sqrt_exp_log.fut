-- sqrt, exp, log, log2, log10 and log1p on f32.
-- ==
-- input { 2f32 } output { 1.41421354f32 7.38905621f32 0.693147182f32 1f32 0.30103001f32 1.09861231f32 }
-- input { 0.5f32 } output { 0.707106769f32 1.64872122f32 -0.693147182f32 -1f32 -0.30103001f32 0.405465096f32 }
-- input { 100f32 } output { 10f32 f32.inf 4.60517025f32 6.64385605f32 2f32 4.61512041f32 }
-- input { 1f32 } output { 1f32 2.71828175f32 0f32 0f32 0f32 0.693147182f32 }
def main (x: f32) = (f32.sqrt x, f32.exp x, f32.log x, f32.log2 x, f32.log10 x, f32.log1p x)
