-- `open import` makes the imported names part of this file's own, so an
-- importer of this file sees them.

open import "base"
