"""Futhark's value formats for the benchmark scripts (no third-party modules).

* write_scalar / write_array: the binary value format ('b', version 2, rank,
  4-character type tag, rank x u64 dimensions, little-endian elements).
* parse_text: Futhark's text value format as printed by executables, into
  Python numbers and nested lists (enough for the outputs of the benchmarks).
* f32: rounding of a Python float to single precision.
"""

import re
import struct
import sys
from array import array

TAGS = {"i32": (b" i32", "i", 4), "i64": (b" i64", "q", 8), "f32": (b" f32", "f", 4), "f64": (b" f64", "d", 8)}


def f32(x):
    """x rounded to the nearest single-precision float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def header(elem, dims):
    tag = TAGS[elem][0]
    return b"b" + bytes([2, len(dims)]) + tag + b"".join(struct.pack("<Q", d) for d in dims)


def write_scalar(out, elem, value):
    tag, code, _ = TAGS[elem]
    out.write(header(elem, []) + struct.pack("<" + code, value))


def write_array(out, elem, dims, data):
    """data: an array.array of the element's type code, or raw little-endian bytes."""
    out.write(header(elem, dims))
    if isinstance(data, array):
        if sys.byteorder != "little":
            data = array(data.typecode, data)
            data.byteswap()
        data = data.tobytes()
    n = 1
    for d in dims:
        n *= d
    assert len(data) == n * TAGS[elem][2], "data does not match the dimensions"
    out.write(data)


_SUFFIX = re.compile(r"(?<=[0-9.])(i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64)")


def parse_text(text):
    """The values of a text stream (one per line or space-separated), as a list."""
    t = text.replace("-f32.inf", "-inf").replace("f32.inf", "inf").replace("f32.nan", "nan")
    t = _SUFFIX.sub("", t)
    toks = re.findall(r"\[|\]|,|-?inf|nan|-?[0-9][0-9.eE+\-]*|true|false", t)
    pos = 0

    def num(tok):
        if re.fullmatch(r"-?[0-9]+", tok):
            return int(tok)
        return float(tok)

    def value():
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok == "[":
            items = []
            while toks[pos] != "]":
                items.append(value())
                if toks[pos] == ",":
                    pos += 1
            pos += 1
            return items
        if tok in ("true", "false"):
            return tok == "true"
        return num(tok)

    values = []
    while pos < len(toks):
        values.append(value())
    return values


def to_text(v, elem):
    """A Python value (number or nested list) in Futhark's text format."""
    if isinstance(v, list):
        return "[" + ", ".join(to_text(x, elem) for x in v) + "]"
    if elem == "f32":
        return "%.9gf32" % v
    return "%d%s" % (v, elem)
