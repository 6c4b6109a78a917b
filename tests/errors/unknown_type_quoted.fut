-- An unknown type is named in double quotes, as Futhark does.
-- ==
-- error: unknown-type.*Unknown type "vec3"
def main (x: vec3) = x
