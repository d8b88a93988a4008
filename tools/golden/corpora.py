#!/usr/bin/env python3
"""Golden renderings of the language corpora by the real runtimes.

Renders the records of the corpora in `../shared/corpus/` with varied,
seeded random values through the formatter each record's source really
calls, and writes what the runtime printed as JSON lines, one per
rendering, into `catalog-runtime/tests/golden/corpora/<corpus>.jsonl`:

    {"id": record id, "message": errorMessage, "style": how it is formatted,
     "values": [[kind, value], ...], "text": the runtime's exact output}

`values` holds one value per template field: one per distinct argument, in
order of first appearance in the message (as `Template::fields`), each as
the field reads it back from the text: `text` (what the formatter wrote for
a text placeholder, `repr`/`Debug`/`util.inspect` output as written,
and for Python's `%r`/`%a` of a string the string its `repr` quotes, of
an integer the integer),
`int`, `bigint` (an integer beyond 64 bits, as decimal text), `float`
(rounded to what the format shows) or `bool`.

    corpus      style         formatter
    nodejs-node js-format     Node's util.format (the E() messages)
                js-template   a template literal evaluated by Node
    django      python        Python's `%`
                python-brace  str.format
                fstring       an f-string evaluated by Python
    cargo       rust          format! in a program compiled by rustc
    kafka       slf4j         org.slf4j.helpers.MessageFormatter (slf4j-api)
                java-format   String.format (locale en-US)
    nats-server go            fmt.Sprintf / fmt.Errorf (go run)
    (all)       plain         the message as is

Each record with placeholders gets `--per-record` renderings (3; kafka 2,
nats-server 1, see PER_RECORD): the first
with ordinary values, the second with hard ones (empty strings, the
dialects' own delimiters and punctuation, quotes, braces, backslashes,
non-ASCII, numbers at their limits), the third a random mix; a record
without placeholders one. A rendering that spans lines (a `%n`, a newline
in the message or in a value) is left out and counted, as is one the
formatter refuses. Values never begin or end with spaces. A hard value
before the message's last literal sometimes holds that literal (`.` in
`start of %s.` of `templates/base.html`); otherwise values never hold the
literal text that follows their placeholder where the text would then have
another reading (see `avoid`), so that each rendering has one reading.
Everything is seeded: regenerating gives the same files.

Needs python3, node, rustc, javac/java with an slf4j-api jar (Debian:
`apt-get install -y libslf4j-java`, found under /usr/share/java, or
`--slf4j JAR`) and, for nats-server, go (`apt-get install -y golang-go`).
Run from the repository root:

    python3 tools/golden/corpora.py                       # all five corpora
    python3 tools/golden/corpora.py --out DIR cargo kafka  # some, elsewhere

Also imported by bench/language_rates.py (load, parse and the renderers).
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPORA = ["nodejs-node", "django", "cargo", "kafka", "nats-server"]
# Renderings per record with placeholders (the largest corpus fewer, to keep
# the files small; nats-server, Go's own dialect, is the no-regression check).
PER_RECORD = {"nodejs-node": 3, "django": 3, "cargo": 3, "kafka": 2, "nats-server": 1}
LANGUAGE = {"nodejs-node": "node", "django": "python", "cargo": "rust", "kafka": "java", "nats-server": "go"}


def load(directory):
    """The records of a corpus directory, in file order."""
    records = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path, encoding="utf-8") as f:
            records.append(json.load(f)["record"])
    return records


# ---------------------------------------------------------------- parsing


class Unrenderable(Exception):
    """A message this script cannot fill (a `*` width, a nested spec...)."""


@dataclass
class Hole:
    """One placeholder of a message."""

    key: object  # the argument: an index, or a name / expression
    kind: str  # text, int, float, bool
    conv: dict  # what the dialect's renderer needs
    start: int = 0
    end: int = 0


@dataclass
class Parsed:
    style: str
    holes: list = field(default_factory=list)
    # The printed literal text before each hole and after the last.
    literals: list = field(default_factory=list)

    @property
    def keys(self):
        """Distinct arguments in order of first appearance: the fields."""
        seen = []
        for hole in self.holes:
            if hole.key not in seen and hole.kind != "none":
                seen.append(hole.key)
        return seen

    def field_of(self, hole):
        return self.keys.index(hole.key)

    def literal_len(self):
        return sum(len(text) for text in self.literals)

    def kinds(self):
        kinds = {}
        for hole in self.holes:
            if hole.kind != "none":
                kinds.setdefault(hole.key, hole.kind)
        return [kinds[k] for k in self.keys]


class Builder:
    def __init__(self, style):
        self.parsed = Parsed(style)
        self.pending = []

    def lit(self, text):
        self.pending.append(text)

    def hole(self, hole):
        self.parsed.literals.append("".join(self.pending))
        self.pending = []
        self.parsed.holes.append(hole)

    def done(self):
        self.parsed.literals.append("".join(self.pending))
        return self.parsed


# Node's util.format: %s %d %i %f %j %o %O %c %%.
def parse_js_format(message):
    b = Builder("js-format")
    if not re.search(r"%[sdifjoOc]", message):
        b.lit(message)  # no conversion: used as is, `%%` included
        return b.done()
    i = arg = 0
    while i < len(message):
        c = message[i]
        nxt = message[i + 1] if i + 1 < len(message) else ""
        if c == "%" and nxt == "%":
            b.lit("%")
            i += 2
        elif c == "%" and nxt and nxt in "sdifjoOc":
            kind = {"d": "int", "i": "int", "f": "float"}.get(nxt, "text")
            b.hole(Hole(arg, "none" if nxt == "c" else kind, {"c": nxt}, i, i + 2))
            arg += 1
            i += 2
        else:
            b.lit(c)
            i += 1
    return b.done()


def scan_expression(text, i, stop):
    """The end of an expression from i: the first top-level stop character."""
    depth = 0
    while i < len(text):
        c = text[i]
        if depth == 0 and stop(text, i):
            return i
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(depth - 1, 0)
        elif c in "\"'`":
            end = text.find(c, i + 1)
            if end < 0:
                raise Unrenderable("unterminated string in an expression")
            i = end
        i += 1
    raise Unrenderable("unterminated field")


def parse_js_template(message):
    b = Builder("js-template")
    i = 0
    while True:
        n = message.find("${", i)
        if n < 0:
            break
        if message[:n].endswith("\\") and not message[:n].endswith("\\\\"):
            b.lit(message[i:n + 2])
            i = n + 2
            continue
        b.lit(message[i:n])
        close = scan_expression(message, n + 2, lambda t, j: t[j] == "}")
        b.hole(Hole(message[n + 2:close].strip(), "text", {}, n, close + 1))
        i = close + 1
    b.lit(message[i:])
    return b.done()


PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-+ #0]*)(?P<width>\d+|\*)?(?:\.(?P<prec>\d+|\*))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")


def conversions(message, pattern, b, star):
    """The conversions of a printf-like message, in order; its literal text
    and each `%%` go into builder b. star(m): m has a `*` width or precision."""
    i = 0
    for m in pattern.finditer(message):
        b.lit(message[i:m.start()])
        i = m.end()
        if m.group(0) == "%%":
            b.lit("%")
            continue
        if star(m):
            raise Unrenderable("a `*` width or precision")
        yield m
    b.lit(message[i:])


def parse_python_percent(message):
    b = Builder("python")
    arg = 0
    for m in conversions(message, PERCENT, b, lambda m: "*" in (m["width"], m["prec"])):
        conv = m["conv"]
        if conv == "%":
            raise Unrenderable("a `%` conversion with flags")
        kind = "text" if conv in "rsa" else "float" if conv in "eEfFgG" else "int"
        key = m["key"] if m["key"] is not None else arg
        if m["key"] is None:
            arg += 1
        b.hole(Hole(key, kind, {"spec": m.group(0), "conv": conv, "prec": m["prec"], "key": m["key"]}, m.start(),
                    m.end()))
    parsed = b.done()
    if any(isinstance(h.key, str) for h in parsed.holes) and any(isinstance(h.key, int) for h in parsed.holes):
        raise Unrenderable("mapping keys and positional conversions mixed")
    return parsed


# The format-spec mini-languages of Python (str.format, f-strings) and Rust.
STD_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?(?P<zero>0)?"
                      r"(?P<width>\d+)?(?P<group>[,_])?(?:\.(?P<prec>\d+))?(?P<type>.*)", re.S)


# The format types of each kind: Python's mini-language and Rust's.
STD_TYPES = {
    "python": {"text": ("", "s", "n"), "int": tuple("bcdoxX"), "float": tuple("eEfFgG%")},
    "rust": {"text": ("", "?", "x?", "X?"), "int": tuple("xXob"), "float": tuple("eE")},
}


def std_kind(spec, language, conversion=None):
    m = STD_SPEC.fullmatch(spec)
    t = m["type"]
    if conversion:
        if t not in ("", "s"):
            raise Unrenderable("a type after a conversion")
        return "text", m
    if t == "" and m["zero"]:
        return ("float" if m["prec"] else "int"), m
    if t == "" and m["prec"] and language == "rust":
        return "float", m
    for kind, types in STD_TYPES[language].items():
        if t in types:
            return kind, m
    raise Unrenderable(f"format type {t!r}")


def brace_holes(message, style, field):
    """Literal text with `{{`/`}}` and fields `{...}`, each read by field()."""
    b = Builder(style)
    i = 0
    lit_start = 0
    while i < len(message):
        c = message[i]
        if c in "{}" and message[i + 1:i + 2] == c:
            b.lit(message[lit_start:i] + c)
            i += 2
            lit_start = i
        elif c == "}":
            raise Unrenderable("a single `}`")
        elif c == "{":
            b.lit(message[lit_start:i])
            end, hole = field(message, i)
            hole.start, hole.end = i, end
            b.hole(hole)
            i = lit_start = end
        else:
            i += 1
    b.lit(message[lit_start:])
    return b.done()


def parse_python_brace(message, style):
    auto = [0]

    def self_documenting(t, j):
        after = t[j + 1:].lstrip()
        return (t[j + 1:j + 2] != "=" and (j == 0 or t[j - 1] not in "=!<>")
                and (after.startswith("}") or after.startswith("!") or after.startswith(":")))

    def stop(t, j):
        if t[j] in "}:":
            return True
        if t[j] == "!":
            return t[j + 1:j + 2] != "="
        if t[j] == "=":
            return self_documenting(t, j)
        return False

    def field(message, open_):
        end = scan_expression(message, open_ + 1, stop)
        expr = message[open_ + 1:end]
        i = end
        if message[i] == "=":
            raise Unrenderable("a self-documenting `{expr=}`")
        conversion = None
        if message[i] == "!":
            conversion = message[i + 1]
            i += 2
        spec = ""
        if message[i] == ":":
            close = message.find("}", i)
            spec = message[i + 1:close]
            if "{" in spec:
                raise Unrenderable("a nested replacement field in a spec")
            i = close
        if message[i] != "}":
            raise Unrenderable("a field not closed by `}`")
        kind, _ = std_kind(spec, "python", conversion)
        expr = expr.strip()
        if expr == "":
            if style == "fstring":
                raise Unrenderable("an empty f-string field")
            key = auto[0]
            auto[0] += 1
        elif expr.isdigit():
            key = int(expr)
        else:
            key = expr
        return i + 1, Hole(key, kind, {"expr": expr, "conversion": conversion, "spec": spec})

    return brace_holes(message, style, field)


RUST_IDENT = re.compile(r"(?:r#)?[^\W\d]\w*")


def parse_rust(message):
    next_positional = [0]

    def field(message, open_):
        close = message.find("}", open_)
        if close < 0:
            raise Unrenderable("unterminated placeholder")
        inside = message[open_ + 1:close]
        argument, _, spec = inside.partition(":")
        if "$" in spec or ".*" in spec:
            raise Unrenderable("a width or precision argument")
        kind, _ = std_kind(spec, "rust")
        if argument == "":
            key = next_positional[0]
            next_positional[0] += 1
        elif argument.isdigit():
            key = int(argument)
        elif RUST_IDENT.fullmatch(argument):
            key = argument
        else:
            raise Unrenderable(f"argument {argument!r}")
        return close + 1, Hole(key, kind, {"spec": spec})

    return brace_holes(message, "rust", field)


JAVA_CONV = re.compile(r"%(?P<index>\d+\$|<)?(?P<flags>[-#+ 0,(]*)(?P<width>\d+)?(?:\.(?P<prec>\d+))?(?P<conv>[a-zA-Z%])")


def parse_java_format(message):
    b = Builder("java-format")
    i = arg = 0
    last = None
    for m in JAVA_CONV.finditer(message):
        b.lit(message[i:m.start()])
        i = m.end()
        conv = m["conv"]
        if conv == "%":
            b.lit("%")
            continue
        if conv == "n":
            b.lit("\n")
            continue
        if conv in "sS":
            kind = "text"
        elif conv in "dxXo":
            kind = "int"
        elif conv in "feEgGaA":
            kind = "float"
        elif conv in "bB":
            kind = "bool"
        elif conv in "cC":
            kind = "int"
        else:
            raise Unrenderable(f"the conversion %{conv}")
        if m["index"] == "<":
            key = last
        elif m["index"]:
            key = int(m["index"][:-1]) - 1
        else:
            key = arg
            arg += 1
        if key is None:
            raise Unrenderable("`%<` first")
        last = key
        b.hole(Hole(key, kind, {"spec": m.group(0), "conv": conv, "flags": m["flags"], "prec": m["prec"]},
                    m.start(), m.end()))
    b.lit(message[i:])
    return b.done()


def parse_slf4j(message):
    """MessageFormatter: `{}` takes the next argument, `\\{}` is a literal
    `{}`, `\\\\{}` a backslash then a value."""
    b = Builder("slf4j")
    i = arg = 0
    while True:
        j = message.find("{}", i)
        if j < 0:
            break
        escaped = j >= 1 and message[j - 1] == "\\"
        doubled = j >= 2 and message[j - 2] == "\\"
        if escaped and not doubled:
            b.lit(message[i:j - 1] + "{")
            i = j + 1
            continue
        b.lit(message[i:j - 1] if escaped else message[i:j])
        b.hole(Hole(arg, "text", {}, j, j + 2))
        arg += 1
        i = j + 2
    b.lit(message[i:])
    return b.done()


GO_VERB = re.compile(r"%(?P<flags>[-+# 0]*)(?:\[(?P<index>\d+)\])?(?P<width>\d+|\*)?(?:\.(?P<prec>\d+|\*)?)?"
                     r"(?:\[(?P<index2>\d+)\])?(?P<verb>[a-zA-Z%])")


def parse_go(message):
    b = Builder("go")
    arg = 0
    for m in conversions(message, GO_VERB, b, lambda m: "*" in (m["width"], m["prec"]) or m["index2"]):
        verb = m["verb"]
        if verb in "vsw":
            kind = "text"
        elif verb == "q":
            kind = "quoted"
        elif verb in "dxXobc":
            kind = "int"
        elif verb in "eEfFgG":
            kind = "float"
        elif verb == "t":
            kind = "bool"
        else:
            raise Unrenderable(f"the verb %{verb}")
        if m["index"]:
            arg = int(m["index"]) - 1
        b.hole(Hole(arg, kind, {"spec": m.group(0), "verb": verb, "prec": m["prec"]}, m.start(), m.end()))
        arg += 1
    return b.done()


def parse_plain(message):
    b = Builder("plain")
    b.lit(message)
    return b.done()


PARSERS = {
    "js-format": parse_js_format, "js-template": parse_js_template, "python": parse_python_percent,
    "python-brace": lambda m: parse_python_brace(m, "python-brace"), "fstring": lambda m: parse_python_brace(m, "fstring"),
    "rust": parse_rust, "java-format": parse_java_format, "slf4j": parse_slf4j, "go": parse_go, "plain": parse_plain,
}


def parse(message, style):
    return PARSERS[style](message)


# ---------------------------------------------------------------- styles


PY_STRING = r"""[rRbBuU]?(?:"[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*')"""
LAZY_LOG = re.compile(r"log(?:ger)?\.\w+\(\s*(?:" + PY_STRING + r"\s*)+,\s*(?![a-z_]+=)\S")
JAVA_LOG = re.compile(r"\b(?:log|LOG|logger|LOGGER|log\(\))\.(?:trace|debug|info|warn|error)\(")


def style_of(corpus, record):
    """How the record's source formats its message (from `sourceCode`)."""
    message = record["errorMessage"]
    source = record.get("sourceCode") or ""
    if corpus == "nodejs-node":
        if record.get("errorCode"):
            return "js-format"  # E(): util.format when given arguments
        return "js-template" if "${" in message else "plain"
    if corpus == "django":
        if re.search(r"(?<![\w])[rR]?[fF][rR]?[\"']", source):
            return "fstring"
        if ".format(" in source and "{" in message:
            return "python-brace"
        if re.search(r"[\"']\s*\)?\s*%", source) or "params=" in source:
            return "python"
        if PERCENT.search(message) and LAZY_LOG.search(source):
            return "python"  # lazy logging with positional arguments
        if PERCENT.search(message) and re.search(r"\braise\s+\w+\(\s*[\"'][^\"']*[\"']\s*,", source):
            return "python"  # an exception whose __str__ formats its (msg, params)
        return "plain"
    if corpus == "cargo":
        # The literal itself given to `.context(..)`, `.with_context(|| ..)`
        # or `shell().warn(..)` is plain text; in a macro call a format.
        at = source.find('"' + re.split(r'["\\\n]', message)[0][:16])
        if at >= 0 and re.search(r"(?:\.(?:context|warn|error)\(|\|\|)\s*$", source[:at]):
            return "plain"
        return "rust" if re.search(r"!\s*[({\[]", source) or "#[error" in source else "plain"
    if corpus == "kafka":
        if "String.format(" in source:
            return "java-format"
        if JAVA_LOG.search(source) and not re.match(r"\s*(?:if\b.*)?throw\b", source):
            return "slf4j"
        return "plain"
    if corpus == "nats-server":
        return "go" if re.search(r"\.(Errorf|Warnf|Noticef|Debugf|Tracef|Fatalf)\(", source) else "plain"
    raise ValueError(corpus)


# ---------------------------------------------------------------- values

WORDS = ["connector-7", "latin9", "orders", "topic-0", "user_42", "x", "main", "v1.2.3", "feature/foo",
         "vendor/cargo/registry/src/", "C:\\Users\\me\\app", "https://example.com/a?b=c&d=%20", "café", "日本語",
         "😀", "naïve", "42", "-0.5", "0", "null", "None", "true", "worker-3", "db.example.org:5432", "a_b",
         "Ünïcödé", "ключ", "x=1", "[topic-0, topic-1]", "{braces}", "état"]
PUNCT = ["{}", "{0}", "{{", "}}", "{", "}", "%s", "%d", "%%", "%", "${x}", "\\{}", ":", "'", "\"", "\\", "\\\\", "(",
         ")", "[a]", "<b>", ",", ";", "=", "#", "`", "|", "*", "?", "$", "^", ".", "\t", "😀"]
MULTI = [" ", " ", " ", ", ", ": ", " - ", "; "]


def text_value(rng, hard, holding=""):
    """A text value; a hard one sometimes holds `holding` between two words
    (the literal after its placeholder, as a path holds the `.` after it)."""
    choice = rng.random()
    if hard:
        if holding and rng.random() < 0.3:
            return rng.choice(WORDS) + holding + rng.choice(WORDS)
        if choice < 0.3:
            return ""
        if choice < 0.75:
            parts = [rng.choice(PUNCT + WORDS) for _ in range(rng.randint(1, 3))]
            return "".join(parts)
        if choice < 0.97:
            return rng.choice(WORDS) + rng.choice(MULTI) + rng.choice(PUNCT) + rng.choice(WORDS)
        return rng.choice(WORDS) + "\n" + rng.choice(WORDS)  # makes the message span lines: left out
    if choice < 0.55:
        return rng.choice(WORDS)
    words = [rng.choice(WORDS) for _ in range(rng.randint(2, 4))]
    return rng.choice(MULTI).join(words)


INTS = [0, 1, 7, 42, 255, 1000, 65536, -1, -42, -65536]
INT_LIMITS = [0, -1, 2**31 - 1, -(2**31), 2**53 - 1, -(2**53), 2**63 - 1, -(2**63)]
FLOATS = [1.5, 3.25, 12.345, 0.1, 100.0, -2.5, 1234.5678]
FLOAT_LIMITS = [0.0, -0.5, 1e21, 1e-7, -1234567.875, 2.5e-5, 123456789.0, 1e100]


def number(rng, kind, hard, limits=INT_LIMITS):
    if kind == "int":
        return rng.choice(limits if hard else INTS)
    return rng.choice(FLOAT_LIMITS if hard else FLOATS)


def ends_message(parsed, hole):
    """Whether hole is the last, right before the message's last literal,
    which ends with no white space: the shape whose literal the matcher
    takes where the message ends (docs/formats.md)."""
    after = parsed.literals[-1]
    return parsed.holes.index(hole) == len(parsed.holes) - 1 and after != "" and not after[-1].isspace()


def avoid(value, parsed, hole):
    """Whether value holds the literal after its hole where the text has
    another reading: anywhere between two holes; before the message's last
    literal, where one of the literal's occurrences before the value's end
    is followed by white space or ends the text (the matcher takes the
    first such one for the message's end)."""
    after = parsed.literals[parsed.holes.index(hole) + 1]
    if not after:
        return False  # nothing after: the message's end
    if not ends_message(parsed, hole):
        return after[:8] in value
    text = value + after
    ends = (i for i in range(len(text) - len(after) + 1)
            if text.startswith(after, i) and (i + len(after) == len(text) or text[i + len(after)].isspace()))
    return next(ends) != len(value)


def choose_text(rng, parsed, hole, hard):
    after = parsed.literals[-1]
    holding = after if ends_message(parsed, hole) and len(after.strip()) <= 3 else ""
    for _ in range(50):
        value = text_value(rng, hard, holding)
        if value.strip() != value and value != "":
            continue
        if not avoid(value, parsed, hole):
            return value
    return rng.choice(WORDS[:5])


def round_float(value, spec_type, prec):
    """value as the format shows it, so that it reads back exactly."""
    p = 6 if prec is None else int(prec)
    if spec_type in "fF":
        return float(format(value, f".{p}f"))
    if spec_type in "eE":
        return float(format(value, f".{p}e"))
    if spec_type in "gG":
        return float(format(value, f".{max(p, 1)}g"))
    return value


# ---------------------------------------------------------------- jobs
#
# A job is one call of the runtime's formatter: (style, format, args), each
# arg a [kind, value] the helper turns into the language's value. Renderers
# take a list of jobs and give back the texts (None when the call failed).


def node_render(jobs):
    if not jobs:
        return []
    lines = "\n".join(json.dumps({"style": s, "format": f, "args": a}) for s, f, a in jobs) + "\n"
    out = subprocess.run(["node", os.path.join(HERE, "corpora.js")], input=lines, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return [json.loads(line).get("text") for line in out]


def rust_literal(kind, value):
    if kind == "int":
        return f"{value}i64"
    if kind == "float":
        text = repr(float(value))
        return f"{text}f64" if ("." in text or "e" in text) else f"{text}.0f64"
    if kind == "debug-list":
        return "vec![" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
    return rust_str(value)


def rust_str(value):
    out = ['"']
    for ch in value:
        if ch in "\"\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def rust_render(jobs):
    """One program of format! calls, compiled by rustc; prints hex."""
    if not jobs:
        return []
    body = []
    for _, fmt, args in jobs:
        positional = [rust_literal(k, v) for name, k, v in args if name is None]
        named = [f"{name} = {rust_literal(k, v)}" for name, k, v in args if name is not None]
        # The format string as a raw literal; its text is the record's message.
        hashes = "#" * 4
        call = ", ".join([f"r{hashes}\"{fmt}\"{hashes}"] + positional + named)
        body.append(f"    out(&format!({call}));")
    chunks = [body[i:i + 400] for i in range(0, len(body), 400)]
    source = ["#![allow(unused)]", "fn out(s: &str) {", "    let hex: String = s.bytes().map(|b| format!(\"{:02x}\", b)).collect();",
              "    println!(\"{}\", hex);", "}"]
    for n, chunk in enumerate(chunks):
        source += [f"fn part{n}() {{"] + chunk + ["}"]
    source += ["fn main() {"] + [f"    part{n}();" for n in range(len(chunks))] + ["}"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "render.rs")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(source) + "\n")
        subprocess.run(["rustc", "--edition", "2021", "-o", os.path.join(tmp, "render"), path], check=True,
                       capture_output=True)
        done = subprocess.run([os.path.join(tmp, "render")], capture_output=True, text=True, check=True).stdout
    return [bytes.fromhex(line).decode("utf-8") for line in done.splitlines()]


def slf4j_jar(given=None):
    for candidate in [given, os.environ.get("SLF4J_JAR"), "/usr/share/java/slf4j-api.jar"]:
        if candidate and os.path.exists(candidate):
            return candidate
    found = sorted(glob.glob("/usr/share/java/slf4j-api*.jar"))
    if found:
        return found[0]
    sys.exit("no slf4j-api jar: apt-get install -y libslf4j-java, or --slf4j JAR / $SLF4J_JAR")


def java_render(jobs, jar):
    if not jobs:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["javac", "-nowarn", "-cp", jar, "-d", tmp, os.path.join(HERE, "Corpora.java")], check=True,
                       capture_output=True)
        lines = []
        for style, fmt, args in jobs:
            cells = [style, fmt.encode("utf-8").hex()] + [f"{k}:{str(v).encode('utf-8').hex()}" for k, v in args]
            lines.append("\t".join(cells))
        out = subprocess.run(["java", "-Duser.language=en", "-Duser.country=US", "-Dfile.encoding=UTF-8", "-cp",
                              f"{tmp}{os.pathsep}{jar}", "Corpora"], input="\n".join(lines) + "\n", capture_output=True,
                             text=True, check=True).stdout.splitlines()
    return [None if line == "!" else bytes.fromhex(line).decode("utf-8") for line in out]


def go_render(jobs):
    if not jobs:
        return []
    lines = "\n".join(json.dumps({"format": f, "args": a}) for _, f, a in jobs) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(HERE, "corpora.go"), os.path.join(tmp, "main.go"))
        env = dict(os.environ, GO111MODULE="off", GOCACHE=os.path.join(tmp, "cache"))
        subprocess.run(["go", "build", "-o", os.path.join(tmp, "render"), os.path.join(tmp, "main.go")], check=True,
                       capture_output=True, env=env, cwd=tmp)
        out = subprocess.run([os.path.join(tmp, "render")], input=lines, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    return [json.loads(line).get("text") for line in out]


# ---------------------------------------------------------------- plans
#
# A plan is one rendering of one record: the job that renders the message,
# the value of each field, and for the values only the runtime can tell
# (what util.format's %j writes, Rust's Debug), value jobs whose output is
# the value.


@dataclass
class Plan:
    record: dict
    parsed: Parsed
    job: object  # (style, format, args) or a Python callable giving the text
    values: list  # [kind, value] per field; value None when a value job gives it
    value_jobs: dict = field(default_factory=dict)  # field index -> (job, how to read its output)


def first_holes(parsed):
    """The first hole of each argument, in order."""
    seen = set()
    for hole in parsed.holes:
        if hole.key not in seen:
            seen.add(hole.key)
            yield hole


def field_args(parsed, args):
    """Each field's key, first hole and argument (by first appearance), once
    every positional argument up to the last is known to be used."""
    positional = sorted(k for k in args if isinstance(k, int))
    if positional != list(range(len(positional))):
        raise Unrenderable("a positional argument is never used")
    holes = {hole.key: hole for hole in first_holes(parsed)}
    for key in parsed.keys:
        yield key, holes[key], args[key]


def js_number(text):
    if re.fullmatch(r"-?\d+", text) and text != "-0" and abs(int(text)) < 2**63:
        return ["int", int(text)]
    return ["float", float(text)]


def plan_node(record, parsed, rng, hard):
    if parsed.style == "js-template":
        # A template literal: its literal parts with the values between them
        # (by field index), evaluated by Node.
        values = []
        for key in parsed.keys:
            hole = next(h for h in parsed.holes if h.key == key)
            values.append(["text", choose_text(rng, parsed, hole, hard)])
        shape = json.dumps({"literals": parsed.literals, "holes": [parsed.field_of(h) for h in parsed.holes]})
        return Plan(record, parsed, ("js-template", shape, values), values)
    values, args, value_jobs = [], {}, {}
    for hole in first_holes(parsed):
        if hole.kind == "none":  # %c: takes an argument, writes nothing
            args[hole.key] = ["text", "color: red"]
            continue
        c = hole.conv["c"]
        if c in "dif":
            args[hole.key] = ["num", rng.choice(INT_LIMITS + FLOAT_LIMITS + [-0.0] if hard else INTS + FLOATS)]
        elif c in "joO" and rng.random() < 0.3:
            args[hole.key] = ["num", number(rng, "int", hard)]
        elif c == "s" and rng.random() < 0.1:
            args[hole.key] = ["num", rng.choice(INTS + FLOAT_LIMITS)]
        else:
            args[hole.key] = ["text", choose_text(rng, parsed, hole, hard)]
        values.append(None)
        # What util.format writes for this argument alone: the field's value.
        # `%d` and `%f` write `Number(value)`, which the field reads as a
        # float; `%i` writes `parseInt(value)`, an integer.
        how = js_number if c == "i" else (lambda t: ["float", float(t)]) if c in "df" else (lambda t: ["text", t])
        value_jobs[len(values) - 1] = (("js-format", "%" + c, [args[hole.key]]), how)
    job = ("js-format", record["errorMessage"], [args[k] for k in sorted(args)])
    return Plan(record, parsed, job, values, value_jobs)


def python_arg(rng, parsed, hole, hard):
    """A Python value for a hole, and the value the field reads back."""
    if hole.kind == "text":
        if rng.random() < 0.15:
            v = [choose_text(rng, parsed, hole, hard) for _ in range(2)]  # a list: repr-like text
        elif rng.random() < 0.1:
            v = number(rng, "int", hard)
        else:
            v = choose_text(rng, parsed, hole, hard)
        return v
    if hole.kind == "int":
        conv = hole.conv.get("conv") or (STD_SPEC.fullmatch(hole.conv.get("spec", ""))["type"] or "d")
        if conv == "c":
            return rng.choice([65, 0xE9, 0x65E5, 0x1F600, 0x7E])
        if hard and rng.random() < 0.3:
            return rng.choice([2**64, 10**30, -(10**25)])
        return number(rng, "int", hard)
    return number(rng, "float", hard)


def int_value(v):
    return ["int", v] if -(2**63) <= v < 2**64 else ["bigint", str(v)]


def plan_python(record, parsed, rng, hard):
    message = record["errorMessage"]
    args = {}
    for hole in parsed.holes:
        if hole.key not in args:
            args[hole.key] = python_arg(rng, parsed, hole, hard)
    # Floats shown rounded: given as shown, so that they read back exactly.
    for hole in parsed.holes:
        if hole.kind == "float":
            if parsed.style == "python":
                t, p = hole.conv["conv"], hole.conv["prec"]
            else:
                m = STD_SPEC.fullmatch(hole.conv["spec"])
                t, p = (m["type"] or "g"), m["prec"]
                if t == "%":
                    continue
                if m["type"] == "" or m["type"] is None:
                    t = "f" if p else "r"
            if t != "r":
                args[hole.key] = round_float(float(args[hole.key]), t, p)
    values = []
    for key in parsed.keys:
        hole = next(h for h in parsed.holes if h.key == key)
        v = args[key]
        if hole.kind == "int":
            values.append(int_value(int(v)))
        elif hole.kind == "float":
            values.append(["float", float(v)])
        elif parsed.style == "python" and hole.conv["conv"] in "ra" and isinstance(v, str) and not hole.conv["prec"]:
            values.append(["text", v])  # `%r` of a string reads back as the string its repr quotes
        elif parsed.style == "python" and hole.conv["conv"] in "ra" and isinstance(v, int) and not hole.conv["prec"]:
            values.append(int_value(v))  # and of an integer as the integer
        elif parsed.style == "python":
            conv, prec = hole.conv["conv"], hole.conv["prec"]
            values.append(["text", ("%" + (f".{prec}" if prec else "") + conv) % (v,)])
        else:
            conversion = hole.conv["conversion"]
            shown = {"r": repr, "a": ascii, "s": str, None: lambda x: x}[conversion](v)
            m = STD_SPEC.fullmatch(hole.conv["spec"])
            values.append(["text", format(shown, (f".{m['prec']}" if m["prec"] else "") + (m["type"] or ""))])

    def render():
        if parsed.style == "python":
            if any(isinstance(k, str) for k in args):
                return message % args
            return message % tuple(args[k] for k in range(len(args)))
        if parsed.style == "python-brace":
            heads = [int(re.match(r"\d*", str(k)).group() or -1) for k in args]
            holders = [Holder() for _ in range(max(heads, default=-1) + 1)]
            for k, v in args.items():
                if isinstance(k, int):
                    holders[k].value = v
            named = Names()
            for k, v in args.items():
                if isinstance(k, str):
                    Holder.place(k, v, holders, named)
            return message.format(*holders, **named)
        # An f-string: Python evaluates the message, each field's expression
        # replaced by a variable holding its value.
        body, names, i = [], {}, 0
        for n, hole in enumerate(parsed.holes):
            body.append(message[i:hole.start])
            var = f"_v{parsed.field_of(hole)}"
            names[var] = args[hole.key]
            conv = "!" + hole.conv["conversion"] if hole.conv["conversion"] else ""
            spec = ":" + hole.conv["spec"] if hole.conv["spec"] else ""
            body.append("{" + var + conv + spec + "}")
            i = hole.end
        body.append(message[i:])
        return eval("f" + repr("".join(body)), {"__builtins__": {}}, names)  # noqa: S307 (our own text)

    return Plan(record, parsed, render, values)


class Holder:
    """A str.format argument: formats as its value; `.attr` and `[key]`
    give other holders, so `{0.attr}` and `{0[key]}` have values of their own."""

    def __init__(self, value=None):
        self.value = value
        self.children = {}

    def __format__(self, spec):
        return format(self.value, spec)

    def __str__(self):
        return str(self.value)

    def __repr__(self):
        return repr(self.value)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.children.setdefault(("attr", name), Holder("?"))

    def __getitem__(self, key):
        return self.children.setdefault(("item", str(key)), Holder("?"))

    @staticmethod
    def place(expr, value, holders, named):
        m = re.match(r"(\d+|[^.\[]+)", expr)
        head, rest = m.group(1), expr[m.end():]
        node = holders[int(head)] if head.isdigit() else named.setdefault(head, Holder("?"))
        for part in re.findall(r"\.([^.\[]+)|\[([^\]]*)\]", rest):
            node = node.children.setdefault(("attr", part[0]) if part[0] else ("item", part[1]), Holder("?"))
        node.value = value


class Names(dict):
    pass


def plan_rust(record, parsed, rng, hard):
    args, values, value_jobs = {}, [], {}
    for hole in first_holes(parsed):
        m = STD_SPEC.fullmatch(hole.conv["spec"])
        t = m["type"]
        if hole.kind == "int":
            args[hole.key] = ("int", number(rng, "int", hard))
        elif hole.kind == "float":
            v = number(rng, "float", hard)
            if m["prec"]:
                v = round_float(v, "f" if t in ("", None) else t, m["prec"])
            args[hole.key] = ("float", v)
        elif t and "?" in t:
            r = rng.random()
            if r < 0.2:
                args[hole.key] = ("debug-list", [choose_text(rng, parsed, hole, hard) for _ in range(2)])
            elif r < 0.3:
                args[hole.key] = ("int", number(rng, "int", hard))
            else:
                args[hole.key] = ("text", choose_text(rng, parsed, hole, hard))
        else:
            args[hole.key] = ("text", choose_text(rng, parsed, hole, hard))
    for key, hole, (kind, v) in field_args(parsed, args):
        if hole.kind in ("int", "float"):
            values.append([hole.kind, v])
            continue
        m = STD_SPEC.fullmatch(hole.conv["spec"])
        t = m["type"] or ""
        if kind == "text" and "?" not in t and not m["prec"]:
            values.append(["text", v])
            continue
        # What Debug (or a precision) writes: the field holds it as written.
        spec = (m["alt"] or "") + (f".{m['prec']}" if m["prec"] else "") + t
        values.append(None)
        value_jobs[len(values) - 1] = (("rust", "{:" + spec + "}", [(None, kind, v)]), lambda s: ["text", s])
    positional = sorted(k for k in args if isinstance(k, int))
    job_args = [(None, *args[k]) for k in positional] + [(k, *args[k]) for k in args if isinstance(k, str)]
    return Plan(record, parsed, ("rust", record["errorMessage"], job_args), values, value_jobs)


def plan_java(record, parsed, rng, hard):
    args, values, value_jobs = {}, [], {}
    for hole in first_holes(parsed):
        if hole.kind == "text":
            if parsed.style == "slf4j" and rng.random() < 0.1:
                args[hole.key] = ("l", number(rng, "int", hard))
            else:
                args[hole.key] = ("s", choose_text(rng, parsed, hole, hard))
        elif hole.kind == "int":
            if hole.conv["conv"] in "cC":
                args[hole.key] = ("i", rng.choice([65, 0xE9, 0x65E5, 0x1F600]))
            else:
                args[hole.key] = ("l", number(rng, "int", hard))
        elif hole.kind == "bool":
            args[hole.key] = ("b", rng.choice(["true", "false"]))
        else:
            v = number(rng, "float", hard)
            t = hole.conv["conv"].lower()
            if t in "feg":
                v = round_float(v, t, hole.conv["prec"])
            args[hole.key] = ("d", v)
    for key, hole, (kind, v) in field_args(parsed, args):
        if hole.kind == "int":
            values.append(["int", int(v)])
        elif hole.kind == "float":
            values.append(["float", float(v)])
        elif hole.kind == "bool":
            values.append(["bool", v == "true"])
        elif parsed.style == "slf4j" or (hole.conv["conv"] == "s" and not hole.conv["prec"]):
            values.append(["text", str(v)])
        else:
            values.append(None)
            spec = "%" + (f".{hole.conv['prec']}" if hole.conv["prec"] else "") + hole.conv["conv"]
            value_jobs[len(values) - 1] = (("java-format", spec, [args[key]]), lambda s: ["text", s])
    job = (parsed.style, record["errorMessage"], [args[k] for k in range(len(args))])
    return Plan(record, parsed, job, values, value_jobs)


def plan_go(record, parsed, rng, hard):
    args, values, value_jobs = {}, [], {}
    for hole in first_holes(parsed):
        verb = hole.conv["verb"]
        if hole.kind in ("text", "quoted"):
            args[hole.key] = ("error" if verb == "w" else "string", choose_text(rng, parsed, hole, hard))
        elif hole.kind == "int":
            args[hole.key] = ("int", rng.choice([65, 0xE9, 0x65E5]) if verb == "c" else number(rng, "int", hard))
        elif hole.kind == "bool":
            args[hole.key] = ("bool", rng.random() < 0.5)
        else:
            v = number(rng, "float", hard)
            if verb in "fFeE" or hole.conv["prec"]:
                v = round_float(v, verb.lower() if verb in "fFeE" else "g", hole.conv["prec"])
            args[hole.key] = ("float", v)
    for key, hole, (kind, v) in field_args(parsed, args):
        flags = hole.conv["spec"][1:-1].lstrip("-").rstrip("0123456789") if hole.kind == "text" else ""
        if hole.kind == "text" and (flags or hole.conv["prec"]):
            # `%+v`, `%#v`, `%.3s`: what Go writes for the value alone.
            values.append(None)
            spec = "%" + flags + (f".{hole.conv['prec']}" if hole.conv["prec"] else "") + hole.conv["verb"]
            value_jobs[len(values) - 1] = (("go", spec, [[kind, v]]), lambda t: ["text", t])
        elif hole.kind in ("text", "quoted"):
            values.append(["text", v])
        elif hole.kind == "bool":
            values.append(["bool", v])
        else:
            values.append([hole.kind, v])
    job = ("go", record["errorMessage"], [list(args[k]) for k in range(len(args))])
    return Plan(record, parsed, job, values, value_jobs)


PLANNERS = {"nodejs-node": plan_node, "django": plan_python, "cargo": plan_rust, "kafka": plan_java,
            "nats-server": plan_go}


def renderer(corpus, options):
    language = LANGUAGE[corpus]
    if language == "node":
        return node_render
    if language == "rust":
        return rust_render
    if language == "java":
        jar = slf4j_jar(getattr(options, "slf4j", None))
        return lambda jobs: java_render(jobs, jar)
    if language == "go":
        return go_render
    return None  # Python: in this process


def renderings(corpus, records, options, per_record=3, seed=26):
    """Renders every record of `corpus`: the golden lines, and the counts of
    what was left out."""
    plans = []
    counts = {"records": len(records), "template spans lines": 0, "a value spans lines": 0, "unrenderable": 0,
              "refused by the formatter": 0}
    unrenderable = []
    for record in records:
        style = style_of(corpus, record)
        try:
            parsed = parse(record["errorMessage"], style)
        except Unrenderable as why:
            counts["unrenderable"] += 1
            unrenderable.append((record["id"], str(why)))
            continue
        if "\n" in "".join(parsed.literals) or "\r" in "".join(parsed.literals):
            counts["template spans lines"] += 1  # a newline in the message, Java's %n
            continue
        n = per_record if parsed.keys else 1
        for k in range(n):
            rng = random.Random(f"{seed}:{corpus}:{record['id']}:{k}")
            hard = k == 1 or (k == 2 and rng.random() < 0.5)
            try:
                if parsed.style == "plain" or (parsed.style == "js-format" and not parsed.holes):
                    # The text as is (Node's E() formats only when given arguments).
                    plans.append(Plan(record, parsed, None, []))
                else:
                    plans.append(PLANNERS[corpus](record, parsed, rng, hard))
            except Unrenderable as why:
                counts["unrenderable"] += 1
                unrenderable.append((record["id"], str(why)))
                break
    render = renderer(corpus, options)
    jobs = []
    for plan in plans:
        if plan.job is not None and not callable(plan.job):
            jobs.append(plan.job)
        jobs.extend(job for job, _ in plan.value_jobs.values())
    texts = iter(render(jobs) if render else [])
    lines = []
    for plan in plans:
        message = plan.record["errorMessage"]
        if plan.job is None:
            text = message
        elif callable(plan.job):
            try:
                text = plan.job()
            except (TypeError, ValueError, KeyError, IndexError, AttributeError, NameError):
                text = None
        else:
            text = next(texts)
        values = list(plan.values)
        for index, (_, how) in sorted(plan.value_jobs.items()):
            piece = next(texts)
            values[index] = how(piece) if piece is not None else None
        if text is None or any(v is None for v in values):
            counts["refused by the formatter"] += 1
            continue
        if "\n" in text or "\r" in text:
            counts["a value spans lines"] += 1
            continue
        lines.append({"id": plan.record["id"], "message": message, "style": plan.parsed.style, "values": values,
                      "text": text})
    return lines, counts, unrenderable


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--out", default=os.path.join(ROOT, "catalog-runtime", "tests", "golden", "corpora"))
    parser.add_argument("--per-record", type=int, help="renderings per record with placeholders (default: PER_RECORD)")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--slf4j", help="the slf4j-api jar (default: $SLF4J_JAR, /usr/share/java/slf4j-api.jar)")
    parser.add_argument("names", nargs="*", default=CORPORA)
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    for name in options.names:
        directory = os.path.join(options.corpus, name)
        if not os.path.isdir(directory):
            sys.exit(f"{directory}: no such corpus (clone `shared` beside the repository)")
        lines, counts, unrenderable = renderings(name, load(directory), options, options.per_record or PER_RECORD[name],
                                                options.seed)
        write(os.path.join(options.out, f"{name}.jsonl"), lines)
        styles = {}
        for line in lines:
            styles[line["style"]] = styles.get(line["style"], 0) + 1
        print(f"{name}: {len(lines)} renderings {styles}; left out: "
              + ", ".join(f"{k} {v}" for k, v in counts.items() if k != "records"), file=sys.stderr)
        for record_id, why in unrenderable[:10]:
            print(f"    unrenderable {record_id}: {why}", file=sys.stderr)


if __name__ == "__main__":
    main()
