-- `iota : (n: i64) -> [n]i64` returns arrays whose size is its argument:
-- mapped over different arguments its rows would differ in size, and
-- `map`'s `b` cannot name that size (Futhark rejects it at compile time
-- rather than at run time).
-- ==
-- error: size-mismatch.*type containing anonymous sizes

def main (ns: []i64) = map iota ns
