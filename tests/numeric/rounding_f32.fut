-- ceil, floor, trunc and round on f32; f32.round rounds half to even.
-- ==
-- input { 2.5f32 } output { 3f32 2f32 2f32 2f32 }
-- input { -3.5f32 } output { -3f32 -4f32 -3f32 -4f32 }
-- input { 4.5f32 } output { 5f32 4f32 4f32 4f32 }
-- input { -0.25f32 } output { -0f32 -1f32 -0f32 -0f32 }
-- input { 5.75f32 } output { 6f32 5f32 5f32 6f32 }
def main (x: f32) = (f32.ceil x, f32.floor x, f32.trunc x, f32.round x)
