entry main (x: i64) : i64 = loop acc = 1 for i < x do if i % 2 == 0 then acc * 3 else acc - 1
