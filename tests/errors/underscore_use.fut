-- A name that starts with an underscore may be bound but not used.
-- ==
-- error: underscore-use.*"_unused".*underscore
def main (_unused: i64) (y: i64) = y + _unused
