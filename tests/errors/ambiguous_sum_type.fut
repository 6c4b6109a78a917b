-- A constructor whose sum type is constrained only by the cases that match
-- it: nothing says the type has just these two constructors.
-- ==
-- error: ambiguous-sum-type.*Type is ambiguous.*#one \| #two

def count : i32 =
  match #two
  case #one -> 1
  case #two -> 2
