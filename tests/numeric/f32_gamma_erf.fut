-- gamma, lgamma, erf and erfc on f32.
-- ==
-- input { 5f32 } output { 24f32 3.17805386f32 1f32 1.53745983e-12f32 }
-- input { 0.5f32 } output { 1.7724539f32 0.572364926f32 0.520499885f32 0.479500115f32 }
-- input { -0.5f32 } output { -3.54490781f32 1.26551211f32 -0.520499885f32 1.52049983f32 }
-- input { 1f32 } output { 1f32 0f32 0.842700779f32 0.157299206f32 }
-- input { 2.5f32 } output { 1.32934034f32 0.28468287f32 0.999593019f32 0.000406952022f32 }
def main (x: f32) = (f32.gamma x, f32.lgamma x, f32.erf x, f32.erfc x)
