-- Each abbreviation is twice the one before: t13 has 2^15 - 1 parts,
-- more than the checker's limit of 20 000.
-- ==
-- error: type-too-large

type t0 = (i32, i32)
type t1 = (t0, t0)
type t2 = (t1, t1)
type t3 = (t2, t2)
type t4 = (t3, t3)
type t5 = (t4, t4)
type t6 = (t5, t5)
type t7 = (t6, t6)
type t8 = (t7, t7)
type t9 = (t8, t8)
type t10 = (t9, t9)
type t11 = (t10, t10)
type t12 = (t11, t11)
type t13 = (t12, t12)
type t14 = (t13, t13)
type t15 = (t14, t14)
type t16 = (t15, t15)
type t17 = (t16, t16)
type t18 = (t17, t17)
type t19 = (t18, t18)

def main (x: t19) : t19 = x
