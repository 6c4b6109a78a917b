-- Each function applies the one before twice, squaring the number of
-- leaves of its result type: f4's has 2^16.
-- ==
-- error: type-too-large

def f0 x = (x, x)
def f1 x = f0 (f0 x)
def f2 x = f1 (f1 x)
def f3 x = f2 (f2 x)
def f4 x = f3 (f3 x)
def f5 x = f4 (f4 x)
def f6 x = f5 (f5 x)
def f7 x = f6 (f6 x)

def main (x: i32) = f7 x
