-- Domain and range errors give special values: exp overflows to inf, log 0 is -inf,
-- sqrt and log of negative numbers are NaN.
-- ==
-- input { } output { f64.inf -f64.inf f64.nan f64.nan 0.0 -f64.inf }
def main = (f64.exp 1000, f64.log 0, f64.sqrt (-1), f64.log (-1), f64.exp (-1000), f64.log2 0)
