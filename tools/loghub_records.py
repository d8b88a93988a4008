#!/usr/bin/env python3
"""Turns a Loghub-2k system's event templates into a dataset of records.

    tools/loghub_records.py SYSTEM OUTDIR [--loghub ../shared/loghub-2k]

Each `EventTemplate` of `SYSTEM/SYSTEM_2k.log_templates.csv` becomes one
record file, `OUTDIR/<id>.json`, in the corpus schema (schemaVersion 2):
`errorMessage` the template as published, `messagePattern` its literal text
escaped with `(.*?)` for each `<*>` (a value that may be empty; Mac's few
`<NUM>` too), so that
errcat reads it in the `pattern` dialect. The id is the first 16 hex digits
of the SHA-256 of `SYSTEM/EventId` (`record_id`), which tells each line's
true record. Prints the number of records written.
"""

import argparse
import csv
import hashlib
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
LOGHUB = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "loghub-2k"))
SPECIAL = re.compile(r"([.^$*+?()\[\]{}|\\])")


# Loghub's placeholders: `<*>`, and `<NUM>` (a number) in a few Mac
# templates, which stands where the raw lines hold numbers (`sts:5_rsn:0`).
PLACEHOLDER = re.compile(r"<\*>|<NUM>")


def pattern_of(template):
    """The template's literal text escaped, each placeholder a lazy group."""
    return "(.*?)".join(SPECIAL.sub(r"\\\1", part) for part in PLACEHOLDER.split(template))


def record_id(system, event_id):
    return hashlib.sha256(f"{system}/{event_id}".encode()).hexdigest()[:16]


def templates(loghub, system):
    path = os.path.join(loghub, system, f"{system}_2k.log_templates.csv")
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return [(row["EventId"], row["EventTemplate"]) for row in csv.DictReader(f)]


def record(system, event_id, template):
    rid = record_id(system, event_id)
    return {
        "record": {
            "id": rid, "repo": f"loghub/{system}", "slug": f"{system.lower()}-{event_id.lower()}",
            "errorCode": event_id, "errorMessage": template, "messagePattern": pattern_of(template),
            "errorType": "log", "errorClass": None, "httpStatus": None, "severity": "error",
            "filePath": f"loghub/{system}/{system}_2k.log_templates.csv", "lineNumber": 1, "sourceCode": None,
            "sourceCodeStart": None, "sourceCodeEnd": None, "githubUrl": "https://github.com/logpai/loghub",
            "documentation": f"Loghub-2k {system} event {event_id}.", "triggerScenarios": None,
            "commonSituations": None, "solutions": [], "exampleFix": None, "handlingStrategy": "fail",
            "validationCode": None, "typeGuard": None, "tryCatchPattern": None, "preventionTips": [],
            "tags": ["loghub", system.lower()], "backgroundTag": f"loghub-{system.lower()}", "analyzedSha": "dd61d09",
            "analyzedAt": "2025-06-14T00:00:00.000Z", "contentChangedAt": None, "schemaVersion": 2,
        },
        "datasetVersion": "2025-06-14T00:00:00.000Z",
    }


def write(loghub, system, outdir):
    os.makedirs(outdir, exist_ok=True)
    ids = {}
    for event_id, template in templates(loghub, system):
        r = record(system, event_id, template)
        ids[event_id] = r["record"]["id"]
        with open(os.path.join(outdir, f"{ids[event_id]}.json"), "w", encoding="utf-8") as f:
            json.dump(r, f, ensure_ascii=False, sort_keys=True)
    return ids


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("system")
    parser.add_argument("outdir")
    parser.add_argument("--loghub", default=LOGHUB)
    options = parser.parse_args()
    print(len(write(options.loghub, options.system, options.outdir)))


if __name__ == "__main__":
    main()
