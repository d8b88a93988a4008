#!/usr/bin/env python3
"""Classification rates on messages rendered by the real formatters.

For each corpus (nodejs-node, django, cargo, kafka), every record's message is
rendered with distinct values by the language's own formatter (Node's
util.format and template literals, Python's %, str.format and f-strings,
rustc's format!, Java's String.format and SLF4J's MessageFormatter), one
message per line; `errcat --data <corpus> scan --json` classifies the lines,
and each is checked for the right record (the record, or one with the same
errorMessage) and for every value recovered.

    bench/language_rates.py [--errcat target/release/errcat] [--corpus DIR] [--slf4j JAR]

Needs node, python3, rustc, javac/java and an slf4j-api jar (--slf4j or
$SLF4J_JAR). Messages that span lines (a value cannot make them one log
line) are left out and counted.
"""

import argparse
import glob
import json
import os
import re
import string
import subprocess
import sys
import tempfile

WORDS = iter(f"v{n}x{n * 7 % 97}" for n in range(10**7))


def token():
    return next(WORDS)


# ---------------------------------------------------------------- Python

class V:
    """A value whose every use is logged: what the formatter wrote for it."""

    log = []

    def __init__(self):
        self.tok = token()
        self.num = len(V.log) + 11

    def __getattr__(self, name):
        if name.startswith("__") and name not in ("__name__", "__class__", "__qualname__"):
            raise AttributeError(name)
        return V()

    def __getitem__(self, key):
        return V()

    def __str__(self):
        V.log.append(self.tok)
        return self.tok

    def __repr__(self):
        V.log.append(repr(self.tok))
        return repr(self.tok)

    def __format__(self, spec):
        kind = spec[-1:] if spec else ""
        if kind in ("d", "x", "X", "o", "b", "n") and kind:
            V.log.append(self.num)
            return format(self.num, spec)
        if kind in ("e", "E", "f", "F", "g", "G", "%"):
            V.log.append(self.num + 0.25)
            return format(self.num + 0.25, spec)
        V.log.append(self.tok)
        return format(self.tok, spec)


class Names(dict):
    def __missing__(self, key):
        value = V()
        self[key] = value
        return value


PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")


def percent_args(message):
    """Arguments for a % format, and the values they render."""
    keyed, positional = {}, []
    for m in PERCENT.finditer(message):
        conv = m["conv"]
        if conv == "%":
            continue
        if conv in "diouxXc":
            value = 65 + len(positional) + len(keyed) if conv == "c" else 1000 + len(positional) + len(keyed)
        elif conv in "eEfFgG":
            value = 2.5 + len(positional)
        else:
            value = token()
        if m["key"] is not None:
            keyed.setdefault(m["key"], value)
        else:
            positional.append(value)
    return (keyed if keyed else tuple(positional))


def python_render(record, style):
    message = record["errorMessage"]
    V.log = []
    if style == "percent":
        args = percent_args(message)
        text = message % args
        expected = []
        for m in PERCENT.finditer(message):
            if m["conv"] == "%":
                continue
            value = args[m["key"]] if m["key"] is not None else args[len(expected)]
            rendered = ("%" + m.group(0)[1:].replace(f"({m['key']})", "") if m["key"] is not None else m.group(0)) % (value,)
            if m["conv"] in "rsa":
                expected.append(rendered)
            elif m["conv"] == "c":
                expected.append(value)
            else:
                expected.append(value)
        return text, expected, [m["key"] or i for i, m in enumerate(m for m in PERCENT.finditer(message) if m["conv"] != "%")]
    if style == "format":
        fields = [f for _, f, _, _ in string.Formatter().parse(message) if f is not None]
        auto = sum(1 for f in fields if f == "")
        numbered = [int(re.match(r"\d+", f).group()) for f in fields if re.match(r"\d", f)]
        count = max([auto - 1] + numbered) + 1
        args = [V() for _ in range(count)]
        text = message.format(*args, **Names())
        keys = []
        n = 0
        for f in fields:
            if f == "":
                keys.append(n)
                n += 1
            else:
                keys.append(f)
        return text, list(V.log), keys
    # f-string: evaluated by Python itself, names bound to logged values.
    text = eval("f" + repr(message), {"__builtins__": {}}, Names())  # noqa: S307 (corpus text, run locally)
    keys = [f for _, f, _, _ in string.Formatter().parse(message) if f is not None]
    return text, list(V.log), keys


def django_style(record):
    source = record.get("sourceCode") or ""
    message = record["errorMessage"]
    if re.search(r"(?<![\w])[rR]?[fF][rR]?[\"']", source):
        return "fstring"
    if ".format(" in source and "{" in message:
        return "format"
    if re.search(r"[\"']\s*\)?\s*%", source) or "params=" in source:
        return "percent"
    if re.search(r"log(ger)?\.\w+\(", source) and PERCENT.search(message):
        # lazy logging with positional arguments
        after = source.split(message[-5:], 1)[-1] if len(message) >= 5 else ""
        if re.match(r"[\"']\s*,\s*(?![a-z_]+=)\S", after):
            return "percent"
    return "plain"


# ---------------------------------------------------------------- Node

NODE = r"""
const util = require('util');
const out = [];
for (const line of require('fs').readFileSync(0, 'utf8').split('\n')) {
  if (!line) continue;
  const job = JSON.parse(line);
  try {
    if (job.style === 'format') {
      const text = util.format(job.message, ...job.args);
      const pieces = job.convs.map((c, i) => util.format('%' + c, job.args[i]));
      out.push({ text, expected: pieces });
    } else {
      const exprs = [];
      const body = job.message.replace(/\$\{((?:[^{}]|\{[^{}]*\})*)\}/g, (_, e) => { exprs.push(e); return '${__v[' + (exprs.length - 1) + ']}'; });
      const values = exprs.map((e, i) => 'tpl' + exprs.findIndex(f => f.trim() === e.trim()) + 'x' + job.n);
      const text = new Function('__v', 'return `' + body.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\\\\\$\{__v/g, '${__v') + '`;')(values);
      out.push({ text, expected: values, keys: exprs.map(e => e.trim()) });
    }
  } catch (e) { out.push({ error: String(e) }); }
}
process.stdout.write(out.map(o => JSON.stringify(o)).join('\n') + '\n');
"""


def node_jobs(records):
    jobs = []
    for n, record in enumerate(records):
        message = record["errorMessage"]
        convs = re.findall(r"%([sdifjoOc%])", message)
        if record.get("errorCode") and any(c != "%" for c in convs):
            convs = [c for c in convs if c != "%"]
            args = []
            for i, c in enumerate(convs):
                args.append(100 + i if c in "di" else 1.5 + i if c == "f" else f"js{n}w{i}")
            jobs.append((record, {"style": "format", "message": message, "args": args, "convs": convs, "n": n}))
        elif "${" in message and not record.get("errorCode"):
            jobs.append((record, {"style": "template", "message": message, "n": n}))
        else:
            jobs.append((record, None))
    return jobs


def render_node(records):
    jobs = node_jobs(records)
    todo = [job for _, job in jobs if job]
    done = subprocess.run(["node", "-e", NODE], input="\n".join(json.dumps(j) for j in todo), text=True,
                          capture_output=True, check=True).stdout.splitlines()
    results = iter(json.loads(line) for line in done)
    out = []
    for record, job in jobs:
        if job is None:
            out.append((record, record["errorMessage"], []))
            continue
        result = next(results)
        if "error" in result:
            out.append((record, None, None))
            continue
        expected = result["expected"]
        if job["style"] == "format":
            expected = [int(p) if c in "di" else float(p) if c == "f" else p for p, c in zip(result["expected"], job["convs"]) if c != "c"]
        out.append((record, result["text"], expected))
    return out


# ---------------------------------------------------------------- Rust

RUST_FIELD = re.compile(r"\{([^{}:]*)(?::([^{}]*))?\}")


def rust_source(records):
    lines = ["fn main() {", "    let mut out: Vec<String> = Vec::new();"]
    plans = []
    for n, record in enumerate(records):
        message = record["errorMessage"]
        source = record.get("sourceCode") or ""
        if not (re.search(r"!\s*[({\[]", source) or "#[error" in source):
            plans.append(None)
            continue
        stripped = message.replace("{{", "\0\0").replace("}}", "\0\0")
        fields = list(RUST_FIELD.finditer(stripped))
        positional, named, expected, keys = {}, {}, [], []
        auto = 0
        for m in fields:
            arg, spec = m.group(1), m.group(2) or ""
            if arg == "":
                key = auto
                auto += 1
            elif arg.isdigit():
                key = int(arg)
            else:
                key = arg
            kind = "debug" if spec.endswith("?") else "int" if spec[-1:] in ("x", "X", "o", "b") else "float" if ("." in spec or spec[-1:] in ("e", "E")) else "text"
            value = {"int": 4096 + n, "float": 3.25 + n, "debug": f"rs{n}d{len(keys)}", "text": f"rs{n}t{len(keys)}"}[kind]
            table = positional if isinstance(key, int) else named
            table.setdefault(key, (kind, value))
            kind, value = table[key]
            keys.append(key)
            if kind == "int":
                expected.append(value)
            elif kind == "float":
                expected.append(value)
            elif kind == "debug":
                expected.append(json.dumps(value))
            else:
                expected.append(value)
        def literal(kind, value):
            return {"int": f"{value}i64", "float": f"{value}f64"}.get(kind, json.dumps(value))
        args = [literal(*positional[i]) for i in range(max(positional, default=-1) + 1) if i in positional]
        if len(args) != (max(positional, default=-1) + 1):
            plans.append(None)
            continue
        lets = " ".join(f"let {k} = {literal(*v)};" for k, v in named.items())
        hashes = "#" * 3
        call = ", ".join([f"r{hashes}\"{message}\"{hashes}"] + args)
        lines.append(f"    {{ {lets} out.push(format!({call})); }}")
        plans.append(expected)
    lines.append("    for m in out { println!(\"{}\", serde_escape(&m)); }")
    lines.append("}")
    lines.append("fn serde_escape(s: &str) -> String { s.replace('\\\\', \"\\\\\\\\\").replace('\\n', \"\\\\n\") }")
    return "\n".join(lines), plans


def render_rust(records):
    source, plans = rust_source(records)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "render.rs")
        with open(path, "w") as f:
            f.write(source)
        subprocess.run(["rustc", "-O", "-o", os.path.join(tmp, "render"), path], check=True, capture_output=True)
        done = subprocess.run([os.path.join(tmp, "render")], capture_output=True, text=True, check=True).stdout
    texts = iter(line.replace("\\n", "\n").replace("\\\\", "\\") for line in done.splitlines())
    out = []
    for record, plan in zip(records, plans):
        if plan is None:
            out.append((record, record["errorMessage"], []))
        else:
            out.append((record, next(texts), plan))
    return out


# ---------------------------------------------------------------- Java

JAVA_CONV = re.compile(r"%(\d+\$)?([-#+ 0,(]*)(\d+)?(\.\d+)?([a-zA-Z%])")


def render_java(records, slf4j_jar):
    calls, plans = [], []
    for n, record in enumerate(records):
        message = record["errorMessage"]
        source = record.get("sourceCode") or ""
        lit = json.dumps(message)
        if "String.format(" in source:
            args, expected = [], []
            for m in JAVA_CONV.finditer(message):
                conv = m.group(5)
                if conv in "n%":
                    continue
                if conv in "dxXo":
                    args.append(f"{5000 + n + len(args)}L")
                    value = 5000 + n + len(args) - 1
                    expected.append(value if conv == "d" else format(value, {"x": "x", "X": "X", "o": "o"}[conv]))
                elif conv in "feEgG":
                    args.append(f"{1.5 + len(args)}")
                    expected.append(1.5 + len(args) - 1)
                else:
                    args.append(json.dumps(f"jf{n}w{len(args)}"))
                    expected.append(f"jf{n}w{len(args) - 1}")
            calls.append(f"String.format({', '.join([lit] + args)})")
            plans.append(expected)
        elif re.match(r"\s*(this\.)?(log|LOG|logger|LOGGER)\.", source):
            count = len(re.findall(r"(?<!\\)\{\}", message)) + len(re.findall(r"\\\\\{\}", message))
            values = [f"sl{n}w{i}" for i in range(count)]
            array = "new Object[]{" + ", ".join(json.dumps(v) for v in values) + "}"
            calls.append(f"org.slf4j.helpers.MessageFormatter.arrayFormat({lit}, {array}).getMessage()")
            plans.append(values)
        else:
            calls.append(None)
            plans.append([])
    body = "\n".join(f"        out.add({c});" for c in calls if c)
    source = ("import java.util.*;\npublic class Render {\n    static void add(List<String> l) {}\n"
              "    public static void main(String[] a) {\n        List<String> out = new ArrayList<>();\n"
              f"{body}\n        for (String s : out) System.out.println(s.replace(\"\\\\\", \"\\\\\\\\\").replace(\"\\n\", \"\\\\n\"));\n    }}\n}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        # One method is limited to 64 KiB of bytecode: split the calls.
        chunks = [calls[i:i + 300] for i in range(0, len(calls), 300)]
        methods = []
        for k, chunk in enumerate(chunks):
            lines = "\n".join(f"        out.add({c});" for c in chunk if c)
            methods.append(f"    static void part{k}(List<String> out) {{\n{lines}\n    }}")
        source = ("import java.util.*;\npublic class Render {\n" + "\n".join(methods) +
                  "\n    public static void main(String[] a) {\n        List<String> out = new ArrayList<>();\n" +
                  "".join(f"        part{k}(out);\n" for k in range(len(chunks))) +
                  "        for (String s : out) System.out.println(s.replace(\"\\\\\", \"\\\\\\\\\").replace(\"\\n\", \"\\\\n\"));\n    }\n}\n")
        with open(os.path.join(tmp, "Render.java"), "w") as f:
            f.write(source)
        subprocess.run(["javac", "-nowarn", "-cp", slf4j_jar, "-d", tmp, os.path.join(tmp, "Render.java")], check=True,
                       capture_output=True)
        done = subprocess.run(["java", "-cp", f"{tmp}:{slf4j_jar}", "Render"], capture_output=True, text=True,
                              check=True).stdout
    texts = iter(re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), line) for line in done.splitlines())
    out = []
    for record, call, plan in zip(records, calls, plans):
        out.append((record, next(texts) if call else record["errorMessage"], plan))
    return out


# ---------------------------------------------------------------- checking

def render_python(records):
    out = []
    for record in records:
        style = django_style(record)
        if style == "plain":
            out.append((record, record["errorMessage"], []))
            continue
        try:
            text, values, keys = python_render(record, style)
        except Exception:  # noqa: BLE001 (a message the stand-in values cannot fill)
            out.append((record, None, None))
            continue
        out.append((record, text, values))
    return out


def same(expected, got):
    if isinstance(expected, float) or isinstance(got, float):
        try:
            return abs(float(expected) - float(got)) < 1e-9
        except (TypeError, ValueError):
            return False
    return str(expected) == str(got)


def measure(name, rendered, errcat, corpus_dir):
    lines, jobs = [], []
    skipped_multiline = unrenderable = 0
    for record, text, expected in rendered:
        if text is None:
            unrenderable += 1
        elif "\n" in text or "\r" in text:
            skipped_multiline += 1
        else:
            lines.append(text)
            jobs.append((record, expected))
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        log = f.name
    scan = subprocess.run([errcat, "--data", corpus_dir, "scan", "--json", log], capture_output=True, text=True)
    results = {}
    for line in scan.stdout.splitlines():
        match = json.loads(line)
        results[match["line"]] = match
    messages = {}
    for path in glob.glob(os.path.join(corpus_dir, "*.json")):
        record = json.load(open(path))["record"]
        messages[record["id"]] = record["errorMessage"]
    patterns = {}
    for path in glob.glob(os.path.join(corpus_dir, "*.json")):
        record = json.load(open(path))["record"]
        patterns[record["id"]] = record.get("messagePattern") or ""
    right = strict = values = 0
    wrong = []
    for number, (record, expected) in enumerate(jobs, start=1):
        match = results.get(number)
        line = lines[number - 1]
        exact = match is not None and (match["id"] == record["id"] or messages.get(match["id"]) == record["errorMessage"])
        # Another record is as right when the line is one of its messages too
        # (its own documented pattern matches the whole line): the two
        # records can write the very same text (`The %r option` and
        # `The '%s' option`).
        ambiguous = match is not None and not exact and all(
            re.fullmatch(patterns[i], line, re.S) for i in (match["id"], record["id"]) if patterns.get(i))
        ok = exact or ambiguous
        strict += exact
        right += ok
        if ok and len(match["args"]) == len(expected) and all(same(e, g) for e, g in zip(expected, match["args"])):
            values += 1
        elif len(wrong) < 8:
            wrong.append((record["id"], lines[number - 1][:120], expected, match and (match["id"], match["args"])))
    total = len(jobs)
    print(f"{name}: {total} messages ({skipped_multiline} multi-line and {unrenderable} unrenderable left out): "
          f"right record {right}/{total} ({100 * right / max(total, 1):.2f}%; this very record {strict}), "
          f"all values {values}/{total} ({100 * values / max(total, 1):.2f}%)")
    for w in wrong:
        print("   ", w)
    os.unlink(log)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errcat", default="target/release/errcat")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--slf4j", default=os.environ.get("SLF4J_JAR"))
    parser.add_argument("names", nargs="*", default=["nodejs-node", "django", "cargo", "kafka"])
    options = parser.parse_args()
    for name in options.names:
        directory = os.path.join(options.corpus, name)
        records = [json.load(open(p))["record"] for p in sorted(glob.glob(os.path.join(directory, "*.json")))]
        if name == "nodejs-node":
            rendered = render_node(records)
        elif name == "django":
            rendered = render_python(records)
        elif name == "cargo":
            rendered = render_rust(records)
        else:
            if not options.slf4j:
                sys.exit("kafka needs an slf4j-api jar: --slf4j JAR or $SLF4J_JAR")
            rendered = render_java(records, options.slf4j)
        measure(name, rendered, options.errcat, directory)


if __name__ == "__main__":
    main()
