-- main counts as an entry point and so cannot be polymorphic.
-- ==
-- error: polymorphic-entry
def main 't (x: t) : t = x
