-- The unit value () and its type.
-- ==
-- input { 4 } output { 4 }
def ignore (_: ()) (x: i32) = x
def main (x: i32) = ignore () x
