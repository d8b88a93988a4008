#!/usr/bin/env python3
"""Records of a Loghub system's event templates: a dataset errcat can scan that system's log with.

    python3 tools/loghub_records.py SYSTEM OUTDIR [--loghub DIR]

reads `DIR/SYSTEM/SYSTEM_2k.log_templates.csv` (DIR: `../shared/loghub-2k` from the repository
root, see its README) and writes one record file per `EventTemplate` into OUTDIR: its
`messagePattern` is the template with every `<*>` a text placeholder `(.*?)` and the rest literal,
its `errorMessage` the template as written, its id and slug derived from the system and the
`EventId`, so that the same templates always give the same records. OUTDIR is created; record
files already in it are overwritten.

As a module: `records(system, loghub)` gives the records (dicts in the dataset's schema), and
`write(system, outdir, loghub)` writes them and gives how many.
"""

import argparse
import csv
import hashlib
import json
import os
import re
import sys

DEFAULT_LOGHUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "loghub-2k")

# What a pattern's literal text must escape: the regex syntax's own characters.
_META = re.compile(r"([\\.+*?()|\[\]{}^$])")


def pattern_of(template):
    """The `messagePattern` of an EventTemplate: literals escaped, each `<*>` a lazy text group."""
    return "(.*?)".join(_META.sub(r"\\\1", part) for part in template.split("<*>"))


def record_of(system, event_id, template):
    """The record of one template, in the schema of the dataset's records."""
    digest = hashlib.sha256(f"loghub/{system}/{event_id}".encode()).hexdigest()
    slug = re.sub(r"[^a-z0-9]+", "-", f"{system} {event_id} {template}".lower()).strip("-")[:80].strip("-")
    return {
        "record": {
            "id": digest[:16],
            "repo": f"loghub/{system}",
            "slug": slug or digest[:16],
            "errorMessage": template,
            "messagePattern": pattern_of(template),
            "errorType": "log",
            "severity": "info",
            # Not a source file of a known language: the message is read as its pattern.
            "filePath": f"{system}_2k.log_templates.csv",
            "documentation": f"Loghub {system} event {event_id}.",
            "solutions": [],
            "preventionTips": [],
            "tags": ["loghub", system.lower()],
            "schemaVersion": 2,
        }
    }


def records(system, loghub=DEFAULT_LOGHUB):
    """The records of every template of `system` (in the order of its templates file)."""
    path = os.path.join(loghub, system, f"{system}_2k.log_templates.csv")
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for line, row in enumerate(rows, start=2):
        if not row.get("EventId") or row.get("EventTemplate") is None:
            raise ValueError(f"{path}:{line}: a row without EventId or EventTemplate")
    return [record_of(system, row["EventId"], row["EventTemplate"]) for row in rows]


def write(system, outdir, loghub=DEFAULT_LOGHUB):
    """Writes the records of `system` into `outdir`, one file each; how many."""
    os.makedirs(outdir, exist_ok=True)
    made = records(system, loghub)
    for record in made:
        with open(os.path.join(outdir, record["record"]["id"] + ".json"), "w", encoding="utf-8") as file:
            json.dump(record, file, ensure_ascii=False, indent=1)
            file.write("\n")
    return len(made)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("system", help="a Loghub system: Android, Apache, BGL, HealthApp, Mac, OpenStack, Spark, Windows")
    parser.add_argument("outdir", help="where to write the record files")
    parser.add_argument("--loghub", default=DEFAULT_LOGHUB, help="the Loghub-2k directory (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        count = write(args.system, args.outdir, args.loghub)
    except (OSError, ValueError) as err:
        print(f"loghub_records.py: {err}", file=sys.stderr)
        return 2
    print(f"{count} records of {args.system} in {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
