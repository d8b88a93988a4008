"""Writes, as JSON lines, what Python 3's `%` operator prints for many format
strings and values: the golden table that catalog-runtime/tests/it/golden.rs
checks the format compiler against. Run by tools/golden/generate.sh."""

import json
import math
import sys


def describe(v):
    if isinstance(v, bool):
        raise TypeError("bools are ints to %; not in the table")
    if isinstance(v, int):
        return {"type": "int", "value": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"type": "float", "value": "NaN"}
        if math.isinf(v):
            return {"type": "float", "value": "+Inf" if v > 0 else "-Inf"}
        return {"type": "float", "value": repr(v)}
    if isinstance(v, str):
        return {"type": "string", "hex": v.encode("utf-8").hex()}
    raise TypeError(type(v))


def emit(fmt, *args):
    out = fmt % args
    row = {"format": fmt, "args": [describe(a) for a in args], "out": out}
    sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


def table(formats, values):
    for f in formats:
        for v in values:
            emit("[" + f + "]", v)


INTS = [0, 1, -1, 7, 42, -42, 255, 65, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63), 2**64 - 1, 2**64, 2**100,
        -(2**100), 123456789012345678901234567890, 10**40]
table(["%d", "%i", "%u", "%5d", "%-5d", "%05d", "%+d", "% d", "%.3d", "%.0d", "%+.0d", "%x", "%X", "%#x", "%#X",
       "%o", "%#o", "%08x", "%#08x", "%-#10x", "%.5x", "%s", "%r", "%a", "%50d", "%-+50d"], INTS)
table(["%c", "%5c", "%-3c"], [65, 0x263a, 0x1F600, 32, 0x10FFFF])
table(["%c", "%3c"], ["a", "é", "\n", "日"])

FLOATS = [0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 0.1, 100.0, 1e6, 1e16, 1e21, 123456.789, 1e-7, 1e-5, 3.141592653589793,
          5e-324, sys.float_info.max, 0.5, 9.5, 0.000123, math.nan, math.inf, -math.inf]
table(["%f", "%F", "%e", "%E", "%g", "%G", "%.0f", "%.2f", "%#.0f", "%10.3f", "%-10.3f", "%010.3f", "%+f", "% f",
       "%.3e", "%#g", "%.3g", "%.0g", "%#.0e", "%.10g", "%.17g", "%s", "%r", "%-+12.4e"], FLOATS)

STRS = ["", "abc", "hello world", "a\"b\\c", "it's", "both ' and \"", "tab\there\nnew", "\x00\x07\x1b\x7f", "é",
        "e\u0301", "日本語", "😀", "\u0085", "\u00ad", "\u2028", "%d", " padded ", "\U0010ffff"]
table(["%s", "%r", "%a", "%10s", "%-10s", "%.2s", "%.0s", "%5.1s", "%12r", "%-12a", "%.3r"], STRS)

# Widths and precisions from arguments.
for star in [0, 1, 9, -9]:
    emit("[%*d]", star, 42)
    emit("[%.*f]", abs(star), 3.14159)
    emit("[%*.*f]", star, 2, -2.5)
    emit("[%.*s]", abs(star), "abcdef")
    emit("[%-*s]", star, "abc")

# Mapping keys, several values.
print(json.dumps({"format": "[%(name)s is %(age)05d; %(name)r]",
                  "args": [describe("bob"), describe(42)],
                  "out": "[%(name)s is %(age)05d; %(name)r]" % {"name": "bob", "age": 42}}, ensure_ascii=False))
emit("[%s=%d (%.1f%%)]", "k", 2**70, 99.5)
