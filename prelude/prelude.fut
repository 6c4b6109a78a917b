-- | The ogham prelude: the user-facing array combinators, written on top
-- of `intrinsics.*`. Loaded before every program (see
-- crates/ogham-types/src/prelude.rs).

-- Functional combinators.

def (|>) '^a '^b (x: a) (f: a -> b) : b = f x
def (<|) '^a '^b (f: a -> b) (x: a) : b = f x
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a) : c = f a b
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b) : c = f (a, b)
def uncurry '^a '^b '^c (f: a -> b -> c) (a: a, b: b) : c = f a b
def const '^a '^b (x: a) (_: b) : a = x
def id '^a (x: a) : a = x

def iterate 'a (n: i32) (f: a -> a) (x: a) : a =
  loop x for _i < n do f x

def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while !(p x) do f x

def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while p x do f x

def not (x: bool) : bool = !x

-- Conversions between i32 and the float types; t32 and t64 truncate.
def r32 (x: i32) : f32 = f32.i32 x
def t32 (x: f32) : i32 = i32.f32 x
def r64 (x: i32) : f64 = f64.i32 x
def t64 (x: f64) : i32 = i32.f64 x
def opaque 't (x: t) : t = x
def trace 't (x: t) : t = x
-- Futhark's debugger stops here; ogham has no debugger, so it is the identity.
def break 't (x: t) : t = x

-- Zipping.

def zip [n] 'a 'b (as: [n]a) (bs: [n]b) : *[n](a, b) = intrinsics.zip as bs
def zip2 [n] 'a 'b (as: [n]a) (bs: [n]b) : *[n](a, b) = intrinsics.zip as bs
def unzip [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) = intrinsics.unzip xs
def unzip2 [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) = intrinsics.unzip xs

-- Maps.

def map 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = intrinsics.map f as
def map1 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = intrinsics.map f as

def map2 'a 'b [n] 'x (f: a -> b -> x) (as: [n]a) (bs: [n]b) : *[n]x =
  intrinsics.map (\(a, b) -> f a b) (zip as bs)

def map3 'a 'b 'c [n] 'x (f: a -> b -> c -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) : *[n]x =
  intrinsics.map (\(a, (b, c)) -> f a b c) (zip as (zip bs cs))

def map4 'a 'b 'c 'd [n] 'x (f: a -> b -> c -> d -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : *[n]x =
  intrinsics.map (\(a, (b, (c, d))) -> f a b c d) (zip as (zip bs (zip cs ds)))

def map5 'a 'b 'c 'd 'e [n] 'x (f: a -> b -> c -> d -> e -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : *[n]x =
  intrinsics.map (\(a, (b, (c, (d, e)))) -> f a b c d e) (zip as (zip bs (zip cs (zip ds es))))

def zip3 [n] 'a 'b 'c (as: [n]a) (bs: [n]b) (cs: [n]c) : *[n](a, b, c) =
  map (\(a, (b, c)) -> (a, b, c)) (zip as (zip bs cs))

def zip4 [n] 'a 'b 'c 'd (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : *[n](a, b, c, d) =
  map (\(a, (b, (c, d))) -> (a, b, c, d)) (zip as (zip bs (zip cs ds)))

def zip5 [n] 'a 'b 'c 'd 'e (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : *[n](a, b, c, d, e) =
  map (\(a, (b, (c, (d, e)))) -> (a, b, c, d, e)) (zip as (zip bs (zip cs (zip ds es))))

def unzip3 [n] 'a 'b 'c (xs: [n](a, b, c)) : ([n]a, [n]b, [n]c) =
  let (as, bcs) = unzip (map (\(a, b, c) -> (a, (b, c))) xs)
  let (bs, cs) = unzip bcs
  in (as, bs, cs)

def unzip4 [n] 'a 'b 'c 'd (xs: [n](a, b, c, d)) : ([n]a, [n]b, [n]c, [n]d) =
  let (as, bcds) = unzip (map (\(a, b, c, d) -> (a, (b, c, d))) xs)
  let (bs, cs, ds) = unzip3 bcds
  in (as, bs, cs, ds)

def unzip5 [n] 'a 'b 'c 'd 'e (xs: [n](a, b, c, d, e)) : ([n]a, [n]b, [n]c, [n]d, [n]e) =
  let (as, bcdes) = unzip (map (\(a, b, c, d, e) -> (a, (b, c, d, e))) xs)
  let (bs, cs, ds, es) = unzip4 bcdes
  in (as, bs, cs, ds, es)

-- Reductions and scans.

def reduce [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = intrinsics.reduce op ne as
def reduce_comm [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = intrinsics.reduce_comm op ne as
def scan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a = intrinsics.scan op ne as

def all [n] 'a (f: a -> bool) (as: [n]a) : bool = reduce (&&) true (map f as)
def any [n] 'a (f: a -> bool) (as: [n]a) : bool = reduce (||) false (map f as)

-- Array construction and basic operations.

def iota (n: i64) : *[n]i64 = intrinsics.iota n
def replicate 't (n: i64) (x: t) : *[n]t = intrinsics.replicate n x
-- The size comes from the context of the use.
def rep 't [n] (x: t) : *[n]t = replicate n x
def indices [n] 't (_xs: [n]t) : *[n]i64 = iota n
def copy 't (a: t) : *t = intrinsics.copy a
def manifest 't (a: t) : *t = intrinsics.copy a

def exscan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a =
  let s = scan op ne as
  in map (\i -> if i == 0 then ne else s[i - 1]) (iota n)

def length [n] 't (_xs: [n]t) : i64 = n
def null [n] 't (_xs: [n]t) : bool = n == 0
def head [n] 't (x: [n]t) : t = x[0]
def last [n] 't (x: [n]t) : t = x[n - 1]
def tail [n] 't (x: [n]t) : [n-1]t = x[1:]
def init [n] 't (x: [n]t) : [n-1]t = x[0:n - 1]
def take [n] 't (i: i64) (x: [n]t) : [i]t = x[0:i]
def drop [n] 't (i: i64) (x: [n]t) : [n-i]t = x[i:]
def split [n] [m] 't (xs: [n+m]t) : ([n]t, [m]t) = (xs[0:n], xs[n:n + m])
def sized [m] 't (n: i64) (xs: [m]t) : [n]t = xs :> [n]t
def reverse [n] 't (x: [n]t) : [n]t = x[::-1]

def (++) [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n+m]t = intrinsics.concat xs ys
def concat [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n+m]t = intrinsics.concat xs ys

def rotate [n] 't (r: i64) (xs: [n]t) : [n]t = intrinsics.rotate r xs
def transpose [n] [m] 't (xs: [n][m]t) : [m][n]t = intrinsics.transpose xs

def flatten [n] [m] 't (xs: [n][m]t) : [n*m]t = intrinsics.flatten xs
def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t) : [n*m*l]t = flatten (flatten xs)
def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t) : [n*m*l*k]t = flatten (flatten_3d xs)

def unflatten 't [n] [m] (xs: [n*m]t) : [n][m]t = intrinsics.unflatten xs
def unflatten_3d 't [n] [m] [l] (xs: [n*m*l]t) : [n][m][l]t = unflatten (unflatten xs)
def unflatten_4d 't [n] [m] [l] [k] (xs: [n*m*l*k]t) : [n][m][l][k]t = unflatten (unflatten_3d xs)

def and [n] (xs: [n]bool) : bool = all id xs
def or [n] (xs: [n]bool) : bool = any id xs

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs do f acc b

def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs[::-1] do f b acc

def tabulate 'a (n: i64) (f: i64 -> a) : *[n]a = map f (iota n)
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[n][m]a =
  map (\i -> map (f i) (iota m)) (iota n)
def tabulate_3d 'a (n: i64) (m: i64) (o: i64) (f: i64 -> i64 -> i64 -> a) : *[n][m][o]a =
  map (\i -> map (\j -> map (f i j) (iota o)) (iota m)) (iota n)

-- Histograms and scatters.

def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (as: [n]a) : *[k]a =
  intrinsics.hist_1d (replicate k ne) op ne is as

def reduce_by_index 'a [k] [n] (dest: *[k]a) (f: a -> a -> a) (ne: a) (is: [n]i64) (as: [n]a) : *[k]a =
  intrinsics.hist_1d dest f ne is as

def reduce_by_index_2d 'a [k] [l] [n] (dest: *[k][l]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64)) (as: [n]a) : *[k][l]a =
  intrinsics.hist_2d dest f ne is as

def reduce_by_index_3d 'a [k] [l] [p] [n] (dest: *[k][l][p]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (as: [n]a) : *[k][l][p]a =
  intrinsics.hist_3d dest f ne is as

def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t = intrinsics.scatter dest is vs

def scatter_2d 't [k] [l] [n] (dest: *[k][l]t) (is: [n](i64, i64)) (vs: [n]t) : *[k][l]t =
  intrinsics.scatter_2d dest is vs

def scatter_3d 't [k] [l] [p] [n] (dest: *[k][l][p]t) (is: [n](i64, i64, i64)) (vs: [n]t) : *[k][l][p]t =
  intrinsics.scatter_3d dest is vs

-- Automatic differentiation. `jvp2 f x dx` is `f x` and the derivative
-- of `f` at `x` in the direction `dx` (a value of `x`'s type), computed
-- together in one forward sweep.
def jvp2 'a 'b (f: a -> b) (x: a) (x': a) : (b, b) = intrinsics.jvp2 f x x'
def jvp 'a 'b (f: a -> b) (x: a) (x': a) : b = (jvp2 f x x').1

-- `vjp2 f x dy` is `f x` and the adjoint of `x` for the adjoint `dy` of
-- the result (a value of the result's type): the gradient of a function
-- to a scalar is `vjp f x 1`.
def vjp2 'a 'b (f: a -> b) (x: a) (y': b) : (b, a) = intrinsics.vjp2 f x y'
def vjp 'a 'b (f: a -> b) (x: a) (y': b) : a = (vjp2 f x y').1

-- The vector forms: `jmp2 f x dxs` is `f x` and `jvp f x` of every row of
-- `dxs`, `mjp2 f x dys` is `f x` and `vjp f x` of every row of `dys`,
-- computed with one forward sweep.
def jmp2 'a 'b [n] (f: a -> b) (x: a) (x': [n]a) : (b, [n]b) = intrinsics.jmp2 f x x'
def mjp2 'a 'b [n] (f: a -> b) (x: a) (y': [n]b) : (b, [n]a) = intrinsics.mjp2 f x y'

-- Custom derivatives: `with_vjp f f' x` is `f x`, and under `vjp` the
-- adjoint of `x` is `f' (f x) ȳ` (free variables of `f` get none).
-- `with_vjp_tape` separates what `f'` needs (the tape `c`) from the
-- result.
def with_vjp 'a 'b (f: a -> b) (f': b -> b -> a) (x: a) : b = intrinsics.with_vjp f f' x
def with_vjp_tape 'a 'b 'c (f: a -> (c, b)) (f': (c, b) -> a) (x: a) : b =
  (with_vjp f (\(c, _) (_, y') -> f' (c, y')) x).1
def jmp 'a 'b [n] (f: a -> b) (x: a) (x': [n]a) : [n]b = (jmp2 f x x').1
def mjp 'a 'b [n] (f: a -> b) (x: a) (y': [n]b) : [n]a = (mjp2 f x y').1

def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t =
  intrinsics.scatter (replicate k x) is vs

-- Filtering.

def filter [n] 'a (p: a -> bool) (as: [n]a) : *[]a = intrinsics.filter p as

def partition [n] 'a (p: a -> bool) (as: [n]a) : ?[k].([k]a, [n-k]a) =
  let (xs, sizes) = intrinsics.partition 2 (\x -> if p x then 0 else 1) as
  let k = sizes[0]
  in (xs[0:k], xs[k:n])

def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (as: [n]a) : ?[k][l].([k]a, [l]a, [n-k-l]a) =
  let (xs, sizes) = intrinsics.partition 3 (\x -> if p1 x then 0 else if p2 x then 1 else 2) as
  let k = sizes[0]
  let l = sizes[1]
  in (xs[0:k], xs[k:k + l], xs[k + l:n])

-- Irregular maps. `f` is applied to every element; its array results are
-- concatenated into the data array, described by the size of each segment,
-- a flag at the start of every non-empty segment, and each segment's
-- offset. `f` runs once for the sizes and the regular results, and once more
-- to place each segment (a sequential loop over the segments).
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let (shape, regular) = unzip (map (\x -> let (ys, c) = f x in (length ys, c)) as)
  let offsets = exscan (+) 0 shape
  let m = reduce (+) 0 shape
  let starts = map2 (\o k -> if k > 0 then o else -1) offsets shape
  let flags = scatter (replicate m false) starts (replicate n true)
  let data : *[m]b =
    if m == 0 then [] :> *[m]b
    else
      let first = reduce i64.min n (map2 (\i k -> if k > 0 then i else n) (iota n) shape)
      let (ys0, _) = f as[first]
      in loop data = replicate m ys0[0] for i < n do
           if shape[i] == 0 then data
           else let (ys, _) = f as[i]
                in data with [offsets[i]:offsets[i] + shape[i]] = ys
  in (shape, flags, offsets, data, regular)

def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (shape, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (shape, flags, offsets, data)

-- The module types of the numeric modules. `i8` … `f64` and `bool` are
-- built-in modules (their members are the checker's built-ins), so
-- `module T = f32` and functors over `real` or `integral` work with them.

module type from_prim = {
  type t
  val i8: i8 -> t
  val i16: i16 -> t
  val i32: i32 -> t
  val i64: i64 -> t
  val u8: u8 -> t
  val u16: u16 -> t
  val u32: u32 -> t
  val u64: u64 -> t
  val f16: f16 -> t
  val f32: f32 -> t
  val f64: f64 -> t
  val bool: bool -> t
}

module type numeric = {
  include from_prim
  val (+): t -> t -> t
  val (-): t -> t -> t
  val (*): t -> t -> t
  val (/): t -> t -> t
  val (%): t -> t -> t
  val (**): t -> t -> t
  val to_i64: t -> i64
  val (==): t -> t -> bool
  val (<): t -> t -> bool
  val (>): t -> t -> bool
  val (<=): t -> t -> bool
  val (>=): t -> t -> bool
  val (!=): t -> t -> bool
  val neg: t -> t
  val max: t -> t -> t
  val min: t -> t -> t
  val abs: t -> t
  val sgn: t -> t
  val highest: t
  val lowest: t
  val sum [n]: [n]t -> t
  val product [n]: [n]t -> t
  val maximum [n]: [n]t -> t
  val minimum [n]: [n]t -> t
}

module type integral = {
  include numeric
  val (//): t -> t -> t
  val (%%): t -> t -> t
  val (&): t -> t -> t
  val (|): t -> t -> t
  val (^): t -> t -> t
  val not: t -> t
  val (<<): t -> t -> t
  val (>>): t -> t -> t
  val (>>>): t -> t -> t
  val num_bits: i32
  val get_bit: i32 -> t -> i32
  val set_bit: i32 -> t -> i32 -> t
  val popc: t -> i32
  val mul_hi: t -> t -> t
  val mad_hi: t -> t -> t -> t
  val clz: t -> i32
  val ctz: t -> i32
}

module type size = {
  include integral
}

module type real = {
  include numeric
  val from_fraction: i64 -> i64 -> t
  val to_f64: t -> f64
  val sqrt: t -> t
  val rsqrt: t -> t
  val cbrt: t -> t
  val exp: t -> t
  val sin: t -> t
  val cos: t -> t
  val tan: t -> t
  val sinpi: t -> t
  val cospi: t -> t
  val tanpi: t -> t
  val asin: t -> t
  val acos: t -> t
  val atan: t -> t
  val asinpi: t -> t
  val acospi: t -> t
  val atanpi: t -> t
  val sinh: t -> t
  val cosh: t -> t
  val tanh: t -> t
  val asinh: t -> t
  val acosh: t -> t
  val atanh: t -> t
  val atan2: t -> t -> t
  val atan2pi: t -> t -> t
  val hypot: t -> t -> t
  val gamma: t -> t
  val lgamma: t -> t
  val erf: t -> t
  val erfc: t -> t
  val lerp: t -> t -> t -> t
  val log: t -> t
  val log2: t -> t
  val log10: t -> t
  val log1p: t -> t
  val ceil: t -> t
  val floor: t -> t
  val trunc: t -> t
  val round: t -> t
  val mad: t -> t -> t -> t
  val fma: t -> t -> t -> t
  val isinf: t -> bool
  val isnan: t -> bool
  val inf: t
  val nan: t
  val pi: t
  val e: t
  val recip: t -> t
  val nextafter: t -> t -> t
  val ldexp: t -> i32 -> t
  val copysign: t -> t -> t
}

module type float = {
  include real
  type int_t
  val from_bits: int_t -> t
  val to_bits: t -> int_t
  val num_bits: i32
  val get_bit: i32 -> t -> i32
  val set_bit: i32 -> t -> i32 -> t
  val epsilon: t
}
