entry main (n: i64) (x: f32) : f32 = reduce (+) 0 (map (\i -> f32.i64 i * x) (iota n))
