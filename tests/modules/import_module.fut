-- `module M = import "file"` binds the file's definitions as a module.
-- ==
-- input { 2.0 3.0 } output { 6.0 10.0 }

module shapes = import "lib/shapes"

def main (w: f64) (h: f64) = (shapes.area w h, shapes.perimeter w h)
