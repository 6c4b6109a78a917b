-- sinh, cosh, tanh, asinh and atanh on f32, plus acosh of 1 + |x|.
-- ==
-- input { 0.5f32 } output { 0.521095276f32 1.12762594f32 0.462117165f32 0.481211811f32 0.549306154f32 0.962423623f32 }
-- input { 0f32 } output { 0f32 1f32 0f32 0f32 0f32 0f32 }
-- input { -0.75f32 } output { -0.822316706f32 1.29468334f32 -0.635148942f32 -0.693147182f32 -0.972955048f32 1.15881038f32 }
def main (x: f32) = (f32.sinh x, f32.cosh x, f32.tanh x, f32.asinh x, f32.atanh x, f32.acosh (1 + f32.abs x))
