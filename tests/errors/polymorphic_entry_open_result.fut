-- The inner size of the result is determined neither by the parameters nor
-- by the body (the empty array's rows could have any length).
-- ==
-- error: polymorphic-entry.*size-polymorphic in their return type

def none 'a (k: i64) : (i64, [0]a) = (k, [])

entry main (k: i64) : (i64, [][]f32) = none k
