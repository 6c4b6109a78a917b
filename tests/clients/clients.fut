-- Entry points driven by the real Python clients (tests/clients/run.sh):
-- futhark-data, futhark-server and futhark-ffi. No test blocks: the
-- Python scripts beside this file check the results.

type pt = {x: f64, y: f64}

entry sum_f32 (xs: []f32) : f32 = reduce (+) 0 xs

entry scale (k: f64) (xs: [][]f64) : [][]f64 = map (map (* k)) xs

-- Several results: one opaque tuple through the C API and the server.
entry stats (xs: []f64) : (f64, []f64, i64) = (reduce (+) 0 xs, map (* 2) xs, length xs)

entry mk (a: f64) (b: f64) : pt = {x = a, y = b}

entry norm (p: pt) : f64 = f64.sqrt (p.x * p.x + p.y * p.y)

-- Fails on an index out of bounds: a run-time error must not end the process.
entry get (xs: []i64) (i: i64) : i64 = xs[i]

entry widen (xs: [][]u8) : [][]i16 = map (map i16.u8) xs

entry flags (xs: []bool) : bool = reduce (||) false xs

-- Consumes its input.
entry bump (xs: *[]f32) : []f32 = xs with [0] = xs[0] + 1

-- A sum type: built and taken apart through the C API (test_sum.c).
type shape = #circle f64 | #rect f64 f64 | #poly ([]f64) | #empty

entry area (s: shape) : f64 =
  match s
  case #circle r -> 3 * r * r
  case #rect w h -> w * h
  case #poly xs -> f64.sum xs
  case #empty -> 0

-- Results of sum type, built in Futhark.
entry scaled (k: f64) (xs: []f64) : shape = #poly (map (* k) xs)

-- Every size in an entry point's result must be determined: `#rect side
-- side` alone leaves the size of `#poly`'s array open (Futhark rejects it as
-- size-polymorphic), so the empty polygon branch fixes it to 0.
entry square (side: f64) : shape = if side < 0 then #poly [] else #rect side side

-- A tuning parameter (#[param]), set through the server and the C API.
entry tuned (x: i64) : i64 = #[param(block)] x

-- A program constant: computed once, when the context is created.
def halves : [4]f64 = map (\i -> f64.i64 i * 0.5) (iota 4)

entry half (i: i64) : f64 = halves[i]
