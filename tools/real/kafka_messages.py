#!/usr/bin/env python3
"""Kafka's log and exception messages as Java itself writes them: each
record of datasets/kafka whose source formats its message (SLF4J's
`{}` through `org.slf4j.helpers.MessageFormatter`, `String.format`) is
rendered by that formatter with hard, Kafka-like values (a topic-partition
where the message says partition, an offset, a broker id, an exception's
message after "due to"), chosen from the words before each placeholder.

    tools/real/kafka_messages.py CORPUS_DIR > tools/real/golden/kafka.jsonl

Needs javac/java and slf4j-api (Debian: `apt-get install -y libslf4j-java`;
or $SLF4J_JAR); it renders through tools/golden/Corpora.java. Each golden
line has the message, the line log4j writes with Kafka's pattern
(`[%d] %p %m (%c)%n`: `[2026-12-01 10:00:00,000] ERROR <message>
(org.apache.kafka.clients.NetworkClient)`), the record (the truth: the
format given to the formatter is that record's) and each placeholder's
value as the formatter writes that value alone.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import corpora  # noqa: E402 (tools/golden/corpora.py)

LEVELS = {"fatal": "FATAL", "critical": "ERROR", "error": "ERROR", "warning": "WARN", "info": "INFO", "debug": "DEBUG",
          "trace": "TRACE"}

# (words just before the placeholder, text value, number value)
TEXT_BY_CONTEXT = [
    (r"partitions?\s*[:=]?\s*\[?$", "orders-3", 3),
    (r"topics?\s*[:=]?\s*\[?$", "orders", 3),
    (r"offsets?\s*[:=]?\s*$", "1234567", 1234567),
    (r"epoch\s*[:=]?\s*$", "17", 17),
    (r"(?:broker|node|leader|replica|controller)(?:\s*id)?\s*[:=]?\s*$", "1", 1),
    (r"(?:group|groupId)\s*[:=]?\s*$", "payments-consumers", 2),
    (r"(?:member|memberId|consumer)\s*[:=]?\s*$", "consumer-payments-1-6b1d3c2e", 6),
    (r"(?:client|clientId)\s*[:=]?\s*$", "producer-1", 1),
    (r"(?:transactional ?id|transactionalId)\s*[:=]?\s*$", "txn-orders-7", 7),
    (r"(?:ms|timeout|after|within)\s*[:=]?\s*$", "30000", 30000),
    (r"(?:size|bytes|length)\s*[:=]?\s*$", "1048576", 1048576),
    (r"(?:task|connector)\s*[:=]?\s*$", "jdbc-sink-0", 0),
    (r"(?:config|property|key)\s*[:=]?\s*['\"]?$", "max.poll.records", 500),
    (r"(?:path|file|directory|dir)\s*[:=]?\s*['\"]?$", "/var/lib/kafka/data/orders-3", 3),
    (r"(?:due to|cause|error|exception|failed|:)\s*$",
     "org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment.", 408),
]


def text_value(before, following, kind):
    for pattern, text, number in TEXT_BY_CONTEXT:
        if re.search(pattern, before, re.I):
            value = number if kind == "int" else text
            break
    else:
        value = 42 if kind == "int" else "localhost:9092"
    if kind == "text" and following and following.strip() and following.strip()[0] in str(value):
        # A value holding the literal that follows its placeholder is
        # another reading of the same text: a plainer one.
        value = "orders"
    return value


def java_class(file_path):
    path = file_path.split("/src/main/java/", 1)[-1].split("/src/main/scala/", 1)[-1]
    return re.sub(r"\.(java|scala)$", "", path).replace("/", ".")


def plan(record, parsed):
    """The formatter's job and a value job per placeholder."""
    args = {}
    for index, hole in enumerate(parsed.holes):
        if hole.key in args:
            continue
        before, following = parsed.literals[index], parsed.literals[index + 1]
        if hole.kind == "int":
            if hole.conv.get("conv") in ("c", "C"):
                args[hole.key] = ("i", 65)
            else:
                args[hole.key] = ("l", text_value(before, following, "int"))
        elif hole.kind == "float":
            args[hole.key] = ("d", 0.75)
        elif hole.kind == "bool":
            args[hole.key] = ("b", "true")
        else:
            args[hole.key] = ("s", text_value(before, following, "text"))
    keys = sorted(k for k in args if isinstance(k, int))
    if keys != list(range(len(keys))):
        raise corpora.Unrenderable("a positional argument is never used")
    job = (parsed.style, record["errorMessage"], [args[k] for k in keys])
    value_jobs = []
    for hole in parsed.holes:
        spec = "{}" if parsed.style == "slf4j" else re.sub(r"^%\d+\$|^%<", "%", hole.conv["spec"])
        value_jobs.append((parsed.style, spec, [args[hole.key]]))
    return job, value_jobs


def main():
    corpus = sys.argv[1]
    jar = corpora.slf4j_jar()
    planned, jobs = [], []
    left_out = 0
    for record in corpora.load(corpus):
        style = corpora.style_of("kafka", record)
        if style not in ("slf4j", "java-format"):
            continue
        try:
            parsed = corpora.parse(record["errorMessage"], style)
            if not parsed.holes:
                continue
            job, value_jobs = plan(record, parsed)
        except corpora.Unrenderable:
            left_out += 1
            continue
        planned.append((record, len(jobs), len(value_jobs)))
        jobs.append(job)
        jobs.extend(value_jobs)
    rendered = corpora.java_render(jobs, jar)
    written = refused = 0
    for record, at, holes in planned:
        text, values = rendered[at], rendered[at + 1:at + 1 + holes]
        if text is None or any(v is None for v in values):
            refused += 1
            continue
        level = LEVELS.get(record.get("severity") or "error", "ERROR")
        line = None if "\n" in text else f"[2026-12-01 10:00:00,000] {level} {text} ({java_class(record['filePath'])})"
        golden = {"program": "kafka", "case": record["slug"], "kind": corpora.style_of("kafka", record), "text": text,
                  "line": line, "where": f"{record['filePath']}:{record['lineNumber']}", "expected": [record["id"]],
                  "values": values}
        sys.stdout.write(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n")
        written += 1
    print(f"kafka: {written} messages rendered by Java ({refused} refused by the formatter, {left_out} not renderable)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
