-- An entry point declared inside a module: only a file's top level has entry points.
-- ==
-- error: nested-entry.*Entry points may not be declared inside modules

module m = {
  entry twice (x: i32) = x * 2
}

entry main (x: i32) = m.twice x
