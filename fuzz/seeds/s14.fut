entry main (x: f64) (y: f32) : (f64, f32, bool) = (f64.sqrt x + f64.sin x, f32.f64 x + y, x < f64.f32 y && !(f64.isnan x))
