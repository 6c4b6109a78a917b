-- A definition's declared function type must agree in uniqueness with its
-- body: `f` consumes its argument, so it is not a `[]f32 -> f32`.
-- ==
-- error: Function body does not have expected type.*uniqueness

def f (xs: *[]f32) : f32 = let xs[0] = 1 in xs[0]

entry g : []f32 -> f32 = f
