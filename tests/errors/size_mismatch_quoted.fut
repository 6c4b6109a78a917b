-- Size names are quoted as in Futhark's messages.
-- ==
-- error: size-mismatch.*Sizes "rows" and "cols" do not match
def main [rows][cols] (a: [rows]f32) (b: [cols]f32) = map2 (+) a b
