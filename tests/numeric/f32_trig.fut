-- sin, cos and tan on f32.
-- ==
-- input { 0f32 } output { 0f32 1f32 0f32 }
-- input { 1f32 } output { 0.841470957f32 0.540302277f32 1.55740774f32 }
-- input { 0.52359879f32 } output { 0.5f32 0.866025388f32 0.577350259f32 }
-- input { -2f32 } output { -0.909297407f32 -0.416146845f32 2.18503976f32 }
def main (x: f32) = (f32.sin x, f32.cos x, f32.tan x)
