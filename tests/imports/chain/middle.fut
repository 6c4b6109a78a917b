-- Imports `base.fut` for its own use; does not pass its names on.

import "base"

def nine_times (x: i32) : i32 = triple (triple x)
