-- A type declared `type~` may hide sizes, so it cannot be an array element.
-- ==
-- error: array-of-functions.*"row"
type~ row = []f32
type table = [4]row
def main (x: f32) = x
