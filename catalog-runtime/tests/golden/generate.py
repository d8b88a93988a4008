#!/usr/bin/env python3
"""Regenerates dialects.json: format strings rendered by the real runtimes
(node, python3, rustc, javac/java). Run from this directory; CI needs none of
them, it reads the checked-in file."""
import json, os, subprocess, tempfile

# (dialect, format, values as [kind, value]); each is rendered by its runtime.
CASES = {
    "js-format": [
        ("%s has %d items (%i%%)", [["text", "cart"], ["int", -42], ["int", 7]]),
        ("ratio %f and %f", [["float", 1.5], ["float", 1e21]]),
        ("tiny %f", [["float", 1.5e-7]]),
    ],
    "python": [
        ("%s has %05d items, %.2f%% done", [["text", "cart"], ["int", -42], ["float", 12.345]]),
        ("%(name)s is %(age)x", [["text", "bob"], ["int", 255]]),
    ],
    "python-brace": [
        ("{} has {:>6} items", [["text", "cart"], ["text", "ab"]]),
        ("{0:+08.3f}|{1:#x}|{2:,d}|{3:^7}|{4:.1%}", [["float", -3.14159], ["int", 255], ["int", 1234567], ["text", "mid"], ["float", 0.125]]),
        ("{:e} and {:g}", [["float", 12345.678], ["float", 0.00001234]]),
        ("{:b} {:o} {:X}", [["int", 5], ["int", -8], ["int", 48879]]),
    ],
    "rust": [
        ("{} has {:>6} items and {:<4}|", [["text", "cart"], ["text", "ab"], ["text", "z"]]),
        ("{:+08.3}|{:#x}|{:#X}|{:^7}|{:e}", [["float", -3.14159], ["int", 255], ["int", 48879], ["text", "mid"], ["float", 1234.5]]),
        ("{:x} {:b} {:o} {:05}", [["int", -1], ["int", 5], ["int", 8], ["int", -42]]),
        ("{:.2e} {:.0}", [["float", 1234.5], ["float", 2.5]]),
    ],
    "java-format": [
        ("%s has %05d items, %.2f done%n", [["text", "cart"], ["int", -42], ["float", 12.345]]),
        ("%,d|%x|%X|%-6s|%e|%10.3f", [["int", 1234567], ["int", -1], ["int", 48879], ["text", "ab"], ["float", 1234.5], ["float", -3.14159]]),
        ("%2$s before %1$s", [["text", "one"], ["text", "two"]]),
        ("%g %b %S", [["float", 1.5], ["bool", True], ["text", "shout"]]),
    ],
    "message-format": [
        ("{0} has {1,number} items, {2,number,#} left, it''s '{'ok'}'", [["text", "cart"], ["int", 1234567], ["int", 1234567]]),
    ],
    "slf4j": [
        ("{} has {} items, literal \\{} and \\\\{}", [["text", "cart"], ["text", "7"], ["text", "x"]]),
    ],
}


def render_js(fmt, values):
    args = [v for _, v in values]
    return subprocess.run(["node", "-e", "const [f, a] = JSON.parse(process.argv[1]); process.stdout.write(require('util').format(f, ...a))",
                           json.dumps([fmt, args])], capture_output=True, text=True, check=True).stdout


def render_python(dialect, fmt, values):
    vals = [v for _, v in values]
    if dialect == "python-brace":
        return fmt.format(*vals)
    if "%(" in fmt:
        return fmt % {"name": vals[0], "age": vals[1]}
    return fmt % tuple(vals)


def rust_lit(kind, v):
    if kind == "int":
        return f"{v}i64"
    if kind == "float":
        return f"{float(v)!r}f64"
    return json.dumps(v)


def java_lit(kind, v):
    if kind == "int":
        return f"{v}L"
    if kind == "float":
        return repr(float(v))
    if kind == "bool":
        return "true" if v else "false"
    return json.dumps(v)


def main():
    out = []
    rust_cases = [(f, v) for f, v in CASES["rust"]]
    java_cases = [(d, f, v) for d in ("java-format", "message-format", "slf4j") for f, v in CASES[d]]
    with tempfile.TemporaryDirectory() as tmp:
        src = "fn main() {\n" + "".join(
            f'    println!("{{:?}}", format!({json.dumps(f)}, {", ".join(rust_lit(k, v) for k, v in vals)}));\n'
            for f, vals in rust_cases) + "}\n"
        open(os.path.join(tmp, "r.rs"), "w").write(src)
        subprocess.run(["rustc", "-o", os.path.join(tmp, "r"), os.path.join(tmp, "r.rs")], check=True)
        rust_out = [json.loads(line) for line in subprocess.run([os.path.join(tmp, "r")], capture_output=True, text=True, check=True).stdout.splitlines()]
        calls = []
        for d, f, vals in java_cases:
            args = ", ".join(java_lit(k, v) for k, v in vals)
            if d == "java-format":
                calls.append(f"String.format({json.dumps(f)}, {args})")
            elif d == "message-format":
                calls.append(f"java.text.MessageFormat.format({json.dumps(f)}, {args})")
            else:
                # SLF4J's MessageFormatter substitution, as Logback and Log4j's SLF4J binding apply it.
                calls.append(f"Slf4j.format({json.dumps(f)}, new Object[]{{{args}}})")
        java = ("public class G {\n  public static void main(String[] a) {\n" +
                "".join(f"    System.out.println(esc({c}));\n" for c in calls) +
                "  }\n  static String esc(String s) { return s.replace(\"\\\\\", \"\\\\\\\\\").replace(\"\\n\", \"\\\\n\"); }\n}\n")
        slf4j = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "Slf4j.java")).read()
        open(os.path.join(tmp, "G.java"), "w").write(java)
        open(os.path.join(tmp, "Slf4j.java"), "w").write(slf4j)
        subprocess.run(["javac", "-d", tmp, os.path.join(tmp, "G.java"), os.path.join(tmp, "Slf4j.java")], check=True)
        java_out = subprocess.run(["java", "-Duser.language=en", "-Duser.country=US", "-cp", tmp, "G"], capture_output=True, text=True, check=True).stdout.splitlines()
        java_out = [line.replace("\\n", "\n").replace("\\\\", "\\") for line in java_out]
    for f, vals in CASES["js-format"]:
        out.append({"dialect": "js-format", "format": f, "values": vals, "expected": render_js(f, vals)})
    for d in ("python", "python-brace"):
        for f, vals in CASES[d]:
            out.append({"dialect": d, "format": f, "values": vals, "expected": render_python(d, f, vals)})
    for (f, vals), expected in zip(rust_cases, rust_out):
        out.append({"dialect": "rust", "format": f, "values": vals, "expected": expected})
    for (d, f, vals), expected in zip(java_cases, java_out):
        out.append({"dialect": d, "format": f, "values": vals, "expected": expected})
    with open("dialects.json", "w") as fh:
        json.dump(out, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
