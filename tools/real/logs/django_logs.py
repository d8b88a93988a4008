#!/usr/bin/env python3
"""A small real Django 5.2.19 site (django_site/: settings, URLs, views,
templates, a model on sqlite) driven into everyday failures, each case a
process of its own writing its console as a user sees it: requests through
the test client (drive.py) logged by Django's default LOGGING, and
`manage.py` commands.

    tools/real/logs/django_logs.py CORPUS_DIR [--held-out] > tools/real/golden/logs/django.jsonl

Run with the Python that has Django 5.2.19 (tools/real/generate.sh makes
the venv). The truth of each error and warning in a case's output is taken
while the process runs, by django_truth/sitecustomize.py (on PYTHONPATH):
the logger call or the raise (innermost frame in the django package) or
the system check that made it, looked up among the dataset's records by
`filePath` and lines (records.py), and kept as `places` so that the
benchmark finds the records of a regenerated dataset there too; a message written where no record is
has none (`expected` empty), which is the dataset's gap. Values are the
log record's arguments as `%` renders them."""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from records import load_by_file, records_at  # noqa: E402

SITE = os.path.join(HERE, "django_site")
TRUTH_HOOK = os.path.join(HERE, "django_truth")

# (case, command: ["GET"|"POST", path, host, flavour] for drive.py or
# ["manage.py", ...], settings module, extra environment)
CASES = [
    ("404", ["GET", "/nope/"], None, {}),
    ("404 from get_object_or_404", ["GET", "/product/999/"], None, {}),
    ("405", ["POST", "/only-get/"], None, {}),
    ("csrf cookie not set", ["POST", "/form/", "", "csrf"], None, {}),
    ("csrf token missing", ["POST", "/form/", "", "csrf-cookie"], None, {}),
    ("disallowed host", ["GET", "/", "evil.example"], None, {}),
    ("view raises", ["GET", "/boom/"], None, {}),
    ("invalid block tag", ["GET", "/bad-tag/"], None, {}),
    ("invalid filter", ["GET", "/bad-filter/"], None, {}),
    ("missing template", ["GET", "/missing-template/"], None, {}),
    ("reverse of an unknown name", ["GET", "/bad-reverse/"], None, {}),
    ("reverse with wrong arguments", ["GET", "/bad-reverse-args/"], None, {}),
    ("url tag of an unknown name", ["GET", "/bad-url-tag/"], None, {}),
    ("redirect to an unknown name", ["GET", "/bad-redirect/"], None, {}),
    ("filter on an unknown field", ["GET", "/bad-lookup/"], None, {}),
    ("filter with a wrong type", ["GET", "/bad-int/"], None, {}),
    ("get of nothing", ["GET", "/no-such-product/"], None, {}),
    ("get of several", ["GET", "/two-products/"], None, {}),
    ("view returns None", ["GET", "/none/"], None, {}),
    ("permission denied", ["GET", "/denied/"], None, {}),
    ("suspicious operation", ["GET", "/suspicious/"], None, {}),
    ("save of an invalid form", ["GET", "/invalid-save/"], None, {}),
    ("full_clean of an invalid model", ["GET", "/full-clean/"], None, {}),
    ("unique constraint", ["GET", "/duplicate/"], None, {}),
    ("empty page", ["GET", "/empty-page/"], None, {}),
    ("bad signature", ["GET", "/bad-signature/"], None, {}),
    ("too many fields", ["POST", "/form/", "", "fields"], None, {}),
    ("field never migrated", ["GET", "/stock/"], None, {"SHOP_UNMIGRATED_FIELD": "1"}),
    ("unknown command", ["manage.py", "migrat"], None, {}),
    ("migrate an unknown app", ["manage.py", "migrate", "payments"], None, {}),
    ("migrate to an unknown migration", ["manage.py", "migrate", "shop", "0042"], None, {}),
    ("migrate with a bad option", ["manage.py", "migrate", "--fake-it"], None, {}),
    ("missing migration", ["manage.py", "migrate"], None, {"SHOP_UNMIGRATED_FIELD": "1"}),
    ("makemigrations of an unknown app", ["manage.py", "makemigrations", "payments"], None, {}),
    ("runserver with a bad port", ["manage.py", "runserver", "80a"], None, {}),
    ("loaddata of a missing fixture", ["manage.py", "loaddata", "products"], None, {}),
    ("createsuperuser without a username", ["manage.py", "createsuperuser", "--noinput"], None, {}),
    ("check --deploy", ["manage.py", "check", "--deploy"], "site_conf.settings_deploy", {}),
    ("check of broken models and urls", ["manage.py", "check"], "site_conf.settings_broken", {}),
    ("empty SECRET_KEY", ["GET", "/"], "site_conf.settings_nokey", {}),
    ("dumpdata of an unknown model", ["manage.py", "dumpdata", "shop.Order"], None, {}),
]

# Held out: not to be tuned on (generated apart, into django.held-out.jsonl).
HELD_OUT = [
    ("held-out: sqlmigrate of an unknown migration", ["manage.py", "sqlmigrate", "shop", "0099"], None, {}),
    ("held-out: dumpdata in an unknown format", ["manage.py", "dumpdata", "--format", "yml", "shop"], None, {}),
    ("held-out: not-null constraint", ["GET", "/not-null/"], None, {}),
    ("held-out: shell of a failing command", ["manage.py", "shell", "-c", "from shop.models import Product; "
                                              "Product.objects.get(pk=12345)"], None, {}),
    ("held-out: migrate of broken models", ["manage.py", "migrate"], "site_conf.settings_broken", {}),
    ("held-out: changepassword of an unknown user", ["manage.py", "changepassword", "nobody"], None, {}),
]

SPEC = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<spec>[-#0 +]*(?:\d+)?(?:\.\d+)?[diouxXeEfFgGcrsa%])")


def percent_values(fmt, args):
    """Each placeholder's value as `%` renders it alone (positional args)."""
    if not isinstance(fmt, str) or not isinstance(args, list):
        return None
    values, index = [], 0
    for m in SPEC.finditer(fmt):
        if m.group("spec") == "%":
            continue
        if m.group("key") is not None or index >= len(args):
            return None
        values.append(("%" + m.group("spec")) % (args[index],))
        index += 1
    return values or None


class Normaliser:
    """What differs between machines and runs, made the same: the site's
    and the venv's directories, the standard library's, object addresses."""

    def __init__(self, site):
        self.pairs = [(site, "/srv/shop"), (sys.prefix, "/srv/venv"),
                      (sysconfig.get_paths()["stdlib"], "/usr/lib/python3")]

    def __call__(self, text):
        for old, new in self.pairs:
            text = text.replace(old, new)
        return re.sub(r"0x[0-9a-f]{6,}", "0x7f0000000000", text)


def find_block(lines, block, taken, start=0):
    """The index of the first run of lines equal to `block`'s, none of them
    taken by another event, or None."""
    want = block.rstrip("\n").split("\n")
    for i in range(start, len(lines) - len(want) + 1):
        if lines[i:i + len(want)] == want and not any(j in taken for j in range(i, i + len(want))):
            return i
    return None


def join_writes(truths):
    """Consecutive writes of one stream joined, so that a line written in
    parts (`Unknown command: %r`, then `. Did you mean %s?`) is one; each
    keeps the place of its first part."""
    joined = []
    for entry in truths:
        last = joined[-1] if joined else None
        if entry["kind"] == "write" and last and last["kind"] == "write" and last["stream"] == entry["stream"] \
                and not last["text"].endswith("\n"):
            joined[-1] = {**last, "text": last["text"] + entry["text"]}
        else:
            joined.append(entry)
    return joined


def events_of(truths, output, records, normalise):
    """The error and warning events in a case's output, each with its
    truth, in the order of the output."""
    lines = output.rstrip("\n").split("\n")
    taken = set()
    events = []
    unknown = []

    def claim(block, level, where, expected, values=None, first_line_only=False, places=(), value_places=()):
        block = normalise(block)
        if first_line_only:
            block = block.split("\n")[0]
        i = find_block(lines, block, taken)
        if i is None:
            return False
        height = block.rstrip("\n").count("\n") + 1
        taken.update(range(i, i + height))
        events.append({"line": i + 1, "lines": height, "level": level, "text": "\n".join(lines[i:i + height]),
                       "where": where, "expected": expected, "places": list(places),
                       "values": values, "value_places": list(value_places) if values else []})
        return True

    def place(entry):
        return f"{entry[0]}:{entry[1]}" if entry and entry[0] else None

    def raised(exc):
        """The records where the exception was raised, and where the one it
        was raised from with the same text was (its message's place)."""
        if not exc or not exc.get("where"):
            return []
        here = records_at(records, exc["where"][0], exc["where"][1], set(exc["classes"]))
        return sorted(set(here) | set(raised(exc.get("message_from"))))

    def raise_place(exc):
        places = []
        while exc and exc.get("where"):
            place = {"file": exc["where"][0], "line": exc["where"][1], "classes": exc["classes"]}
            if place not in places:
                places.append(place)
            exc = exc.get("message_from")
        return places

    def at(where):
        return [{"file": where[0], "line": where[1]}] if where and where[0] else []

    # Uncaught exceptions and log records first (whole blocks), then checks,
    # command errors and what else Django wrote to stderr.
    order = {"uncaught": 0, "log": 1, "check": 2, "command": 3, "usage": 4, "write": 5}
    for entry in sorted(join_writes(truths), key=lambda e: order[e["kind"]]):
        kind = entry["kind"]
        if kind == "log":
            expected = set()
            where = entry["where"]
            logged_at = at(where)
            if where[0]:
                expected.update(records_at(records, where[0], where[1]))
            # A logging helper's caller (log_response's) chose the message.
            if where[0] == "django/utils/log.py" and len(entry["stack"]) >= 2:
                caller = entry["stack"][-2]
                expected.update(records_at(records, caller[0], caller[1]))
                logged_at += at(caller)
                where = caller
            exc = entry.get("exception")
            expected.update(raised(exc))
            block = entry["message"] + ("\n" + exc["formatted"] if exc else "")
            level = "error" if entry["level"] in ("ERROR", "CRITICAL") else "warning"
            text_where = place(where) + (f" ({exc['class']} at {place(exc['where'])})" if exc else "")
            claim(block, level, text_where, sorted(expected), percent_values(entry["msg"], entry["args"]),
                  places=logged_at + raise_place(exc), value_places=logged_at)
        elif kind == "uncaught":
            exc = entry["exception"]
            claim(exc["formatted"], "error", f"{exc['class']} at {place(exc['where'])}", raised(exc), places=raise_place(exc))
        elif kind == "check":
            where = entry["where"]
            expected = records_at(records, where[0], where[1]) if where else []
            claim(entry["text"], "error" if entry["level"] >= 40 else "warning",
                  f"check {entry['id']} at {place(where)}", expected, places=at(where))
        elif kind == "command":
            exc = entry["exception"]
            text = exc["text"] if exc["class"] == "SystemCheckError" else f"{exc['class']}: {exc['text']}"
            claim(text, "error", f"{exc['class']} at {place(exc['where'])}", raised(exc),
                  first_line_only=exc["class"] == "SystemCheckError", places=raise_place(exc))
        elif kind == "usage":
            claim(f"{entry['prog']}: error: {entry['message']}", "error", "argparse (Python)", [])
        elif kind == "write" and entry["where"][0] != "django/core/management/base.py":
            # (base.py's writes are the check report's headings and the
            # CommandError line, whose messages are events of their own.)
            where = entry["where"]
            level = "error" if entry["stream"] == "stderr" or entry["style"] == "ERROR" else "warning"
            claim(entry["text"].strip("\n"), level, place(where), records_at(records, where[0], where[1]), places=at(where))
    for i, line in enumerate(lines):
        if i not in taken and re.search(r"Error|error:|Warning|WARNING|Traceback", line):
            unknown.append(line)
    events.sort(key=lambda e: e["line"])
    return events, unknown


def build_site(python):
    site = tempfile.mkdtemp(prefix="real-django-site-")
    shutil.rmtree(site)
    shutil.copytree(SITE, site)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "site_conf.settings"}
    for args in (["makemigrations", "shop"], ["migrate"]):
        subprocess.run([python, "manage.py", *args], cwd=site, env=env, check=True, capture_output=True)
    seed = "from shop.models import Product; Product.objects.create(name='Tea', sku='TEA-1', price=3); " \
           "Product.objects.create(name='Coffee', sku='COF-1', price=4)"
    subprocess.run([python, "manage.py", "shell", "-c", seed], cwd=site, env=env, check=True, capture_output=True)
    return site


def run_case(python, site, command, settings, extra, records, normalise):
    truth_file = os.path.join(site, "truth.jsonl")
    if os.path.exists(truth_file):
        os.unlink(truth_file)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "PYTHON"))}
    env.update(DJANGO_SETTINGS_MODULE=settings or "site_conf.settings", PYTHONPATH=TRUTH_HOOK,
               REAL_LOGS_TRUTH=truth_file, PYTHONHASHSEED="0", COLUMNS="100", **extra)
    argv = [python, *command] if command[0] == "manage.py" else [python, "drive.py", *command]
    done = subprocess.run(argv, cwd=site, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    truths = []
    if os.path.exists(truth_file):
        with open(truth_file, encoding="utf-8") as f:
            truths = [json.loads(line) for line in f]
    output = normalise(done.stdout)
    events, unknown = events_of(truths, output, records, normalise)
    shown = " ".join(command) if command[0] == "manage.py" else f"{command[0]} {command[1]}" + (
        f" (Host: {command[2]})" if len(command) > 2 and command[2] else "")
    return {"command": shown, "settings": settings or "site_conf.settings", "status": done.returncode,
            "log": output, "events": events}, unknown


def main():
    corpus = sys.argv[1]
    held_out = "--held-out" in sys.argv[2:]
    records = load_by_file(corpus)
    site = build_site(sys.executable)
    normalise = Normaliser(site)
    try:
        for name, command, settings, extra in HELD_OUT if held_out else CASES:
            case, unknown = run_case(sys.executable, site, command, settings, extra, records, normalise)
            golden = {"program": "django", "case": name, "held_out": held_out, **case}
            sys.stdout.write(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n")
            for line in unknown:
                print(f"django: {name}: a line like an error without its truth: {line[:120]!r}", file=sys.stderr)
            if not case["events"]:
                print(f"django: {name}: no error or warning (status {case['status']})", file=sys.stderr)
    finally:
        shutil.rmtree(site, ignore_errors=True)


if __name__ == "__main__":
    main()
