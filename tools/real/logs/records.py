"""The records of a dataset directory, looked up by where their message is
raised or logged (`filePath` and the `sourceCodeStart`..`sourceCodeEnd`
lines of the call): the truth of a harness line is where its program wrote
it, never its text."""

import json
import os


def load_by_file(corpus):
    by_file = {}
    for name in sorted(os.listdir(corpus)):
        if name.endswith(".json"):
            with open(os.path.join(corpus, name), encoding="utf-8") as f:
                record = json.load(f)["record"]
            by_file.setdefault(record["filePath"], []).append(record)
    return by_file


def records_at(by_file, file, line, classes=None):
    """The ids of the records whose call spans this line of this file; for
    an exception (`classes`: its class and bases), only a `raise` of one of
    them: an exception of another class at that line was not raised by
    that statement."""
    return sorted(
        r["id"] for r in by_file.get(file, [])
        if r["sourceCodeStart"] <= line <= (r["sourceCodeEnd"] or r["lineNumber"])
        and (classes is None or r["errorType"] != "exception" or not r["errorClass"] or r["errorClass"] in classes)
    )
