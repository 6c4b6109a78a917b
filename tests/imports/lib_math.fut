-- Helper library imported by tests in this directory (no test block).
type point = {x: i32, y: i32}

def square (x: i32) : i32 = x * x

def cube (x: i32) : i32 = x * x * x

def manhattan (p: point) : i32 = i32.abs p.x + i32.abs p.y

def (a: i32) <+> (b: i32) : i32 = a * 100 + b

-- An entry point in an imported file is an ordinary function for the importer.
entry lib_entry (x: i32) : i32 = x + 1000
