-- open is part of the module system, which is not supported.
-- ==
-- error: not-supported-yet
open i32
def main (x: i32) = x
