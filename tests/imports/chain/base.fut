-- A library at the bottom of an import chain (imported by `middle.fut`).

def triple (x: i32) : i32 = 3 * x
