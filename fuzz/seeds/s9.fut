def twice 'a (f: a -> a) (x: a) : a = f (f x)
entry main (x: i32) (y: f64) : (i32, f64) = (twice (+1) x, twice (*2) y)
