-- A library file for import_module.fut (no tests of its own).

def area (w: f64) (h: f64) = w * h
def perimeter (w: f64) (h: f64) = 2 * (w + h)
