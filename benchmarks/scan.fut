-- The inclusive prefix sum of i32 values (wrapping on overflow).
-- ==
-- nobench input { [82i32, -76i32, 36i32, -23i32, -83i32, 102i32, -76i32, 1i32] }
-- output { [82i32, 6i32, 42i32, 19i32, -64i32, 38i32, -38i32, -37i32] }
-- nobench input { [2147483647i32, 1i32, 5i32] }
-- output { [2147483647i32, -2147483648i32, -2147483643i32] }
-- notest input @ data/scan-100000000.in

def main [n] (xs: [n]i32) : [n]i32 = scan (+) 0i32 xs
