-- Two record types with different fields: the message lists the unshared ones.
-- ==
-- error: type-mismatch.*unshared fields: lat, lon
def main (b: bool) =
  if b then {lat = 1f32, h = 2f32} else {lon = 1f32, h = 3f32}
