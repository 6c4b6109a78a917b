-- Imported by shadow_imported.fut, which defines its own `scale`.
def scale (x: i32) = x * 10
def offset (x: i32) = x + 100
