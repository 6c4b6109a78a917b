-- An unterminated string literal.
-- ==
-- error: lexical-error
def main = "abc

