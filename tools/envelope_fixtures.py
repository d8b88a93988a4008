#!/usr/bin/env python3
"""Regenerates errcat/tests/data/envelopes/: the same nats-server messages
written by real log producers, for errcat/tests/it/envelope_fixtures.rs.

Producers (each file is written only when its producer is there; the
checked-in files were all made by this script):
  python-json-logger.log  Python logging + python-json-logger (pip install python-json-logger)
  structlog.log           structlog's JSONRenderer (pip install structlog)
  pino.log                Node's pino (npm install pino, in a temporary directory)
  go-json.log             Go encoding/json (HTML-escaped, as logrus's JSONFormatter by default)
  go-logfmt.log           Go strconv.Quote in key=value pairs (as slog's TextHandler, go-logfmt)
  logrus-json.log         Go's logrus, its JSONFormatter (tools/logrus_fixtures.go; Debian:
  logrus-text.log         apt-get install golang-github-sirupsen-logrus-dev) and TextFormatter
  logger-rfc5424.log      util-linux logger --rfc5424, caught on a Unix socket
  logger-rfc3164.log      util-linux logger --rfc3164, caught on a Unix socket
  docker.log, cri.log, journald.log
                          built to the producers' documented rules (no daemon
                          here): moby's json-file escaping, a line split in
                          16 KiB pieces; CRI P/F pieces; journald's MESSAGE
                          as text and as a byte array
  bare.log                the messages themselves, one per line (and the
                          long one, for the pieces, last)

Times, hosts and process ids are fixed (or rewritten to fixed values), so
that a run gives the same files.

    python3 tools/envelope_fixtures.py            # from the repository's root
    python3 tools/envelope_fixtures.py logrus     # only some producers
"""

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "errcat" / "tests" / "data" / "envelopes"

# nats-server's messages as it renders them (Go %q values: quotes, a tab
# written `\t`, non-ASCII, HTML-special characters).
MESSAGES = [
    'unable to persist session "s \\"7\\" <x>" (seq=5): write tcp 10.0.0.7:4222: i/o timeout',
    'create QoS2 incoming messages stream for account "日本 & co": nats: timeout',
    "QoS1 in-flight window is full (1024 messages) and JetStream has not acknowledged the oldest message "
    "within 4s; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect",
    'unable to persist session "tab\\there" (seq=0): disk <full>',
    'unable to persist session "😀" (seq=1): ',
]


# A line long enough for Docker to split it (16 KiB pieces) and CRI too.
LONG = 'unable to persist session "%s" (seq=9): timeout' % ("x" * 40000)


def docker_string(text: str) -> str:
    """As moby's json-file driver escapes (`jsonlogbytes.go`): `"` `\\`,
    `\\n` `\\r` short, other control characters and `<` `>` `&` as `\\u00XX`."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or c in "<>&\u2028\u2029":
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def built_to_rules() -> None:
    docker = []
    for message in MESSAGES + [LONG]:
        whole = f"[1] 2026/11/29 17:20:35.000001 [ERR] {message}\n".encode()
        # moby `daemon/logger/copier.go`: pieces of at most 16 KiB, the last with the `\n`.
        for at in range(0, len(whole), 16 * 1024):
            piece = whole[at : at + 16 * 1024].decode()
            docker.append('{"log":%s,"stream":"stderr","time":"2026-11-29T17:20:35.000001Z"}' % docker_string(piece))
    write("docker.log", docker)
    cri = []
    for message in MESSAGES + [LONG]:
        # containerd `pkg/cri/io/logger.go`: `P` pieces, then `F`.
        pieces = [message[at : at + 16 * 1024] for at in range(0, len(message), 16 * 1024)]
        for i, piece in enumerate(pieces):
            tag = "F" if i == len(pieces) - 1 else "P"
            cri.append(f"2026-11-29T17:20:35.000001234Z stderr {tag} {piece}")
    write("cri.log", cri)
    journal = []
    for i, message in enumerate(MESSAGES + [LONG]):
        entry = {"__CURSOR": f"s=1;i={i}", "__REALTIME_TIMESTAMP": "1764436835000001", "PRIORITY": "3",
                 "SYSLOG_IDENTIFIER": "nats-server", "_PID": "1035", "MESSAGE": message}
        if i % 2:
            # systemd `docs/JOURNAL_EXPORT_FORMATS.md`: a field may come as an array of bytes.
            entry["MESSAGE"] = list(message.encode())
        journal.append(json.dumps(entry, ensure_ascii=False))
    write("journald.log", journal)


def write(name: str, lines) -> None:
    (OUT / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {OUT / name}", file=sys.stderr)


def python_json_logger() -> None:
    try:
        from pythonjsonlogger import jsonlogger
    except ImportError:
        from pythonjsonlogger import json as jsonlogger  # 3.x
    import io

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(jsonlogger.JsonFormatter("%(levelname)s %(name)s %(message)s"))
    logger = logging.getLogger("nats")
    logger.handlers[:] = [handler]
    logger.propagate = False
    for message in MESSAGES:
        logger.error(message)
    write("python-json-logger.log", stream.getvalue().splitlines())


def structlog_json() -> None:
    import io

    import structlog

    stream = io.StringIO()
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.JSONRenderer()],
        logger_factory=structlog.PrintLoggerFactory(file=stream),
    )
    log = structlog.get_logger()
    for message in MESSAGES:
        log.error(message, component="mqtt")
    write("structlog.log", stream.getvalue().splitlines())


def pino() -> None:
    if not shutil.which("npm") or not shutil.which("node"):
        print("skipped pino.log: no node/npm", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "install", "--silent", "pino@9"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        script = (
            "const pino = require('pino');"
            "const log = pino({base: {pid: 1035, hostname: 'host-a'}, timestamp: () => ',\"time\":1764436835000'});"
            f"for (const m of {json.dumps(MESSAGES)}) log.error(m);"
        )
        out = subprocess.run(["node", "-e", script], cwd=tmp, check=True, capture_output=True, text=True).stdout
    write("pino.log", out.splitlines())


GO_PROGRAM = """
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

func main() {
	var messages []string
	json.Unmarshal([]byte(os.Args[2]), &messages)
	for _, m := range messages {
		if os.Args[1] == "json" {
			// As logrus's JSONFormatter: encoding/json, HTML escaping on.
			line, _ := json.Marshal(map[string]string{"level": "error", "msg": m, "time": "2026-11-29T17:20:35Z"})
			fmt.Println(string(line))
		} else {
			// As slog's TextHandler: values quoted with strconv.Quote.
			fmt.Printf("time=2026-11-29T17:20:35.000Z level=ERROR msg=%s component=mqtt\\n", strconv.Quote(m))
		}
	}
}
"""


def run_go(program: str, env: dict, outputs) -> None:
    """Runs the Go `program` (its source) once per `(argument, file)` of
    `outputs`, with the messages, writing what it prints to the file."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "main.go").write_text(program)
        env = {**os.environ, "GO111MODULE": "off", "GOCACHE": str(Path(tmp) / "cache"), **env}
        for kind, name in outputs:
            out = subprocess.run(
                ["go", "run", "main.go", kind, json.dumps(MESSAGES)], cwd=tmp, env=env, check=True,
                capture_output=True, text=True,
            ).stdout
            write(name, out.splitlines())


def go() -> None:
    if not shutil.which("go"):
        print("skipped go-*.log: no go", file=sys.stderr)
        return
    run_go(GO_PROGRAM, {}, (("json", "go-json.log"), ("logfmt", "go-logfmt.log")))


# Where Debian's Go packages are (golang-github-sirupsen-logrus-dev), unless
# $LOGRUS_GOPATH says where logrus's source tree is.
LOGRUS_GOPATH = os.environ.get("LOGRUS_GOPATH", "/usr/share/gocode")


def logrus() -> None:
    if not shutil.which("go") or not (Path(LOGRUS_GOPATH) / "src/github.com/sirupsen/logrus").is_dir():
        print(f"skipped logrus-*.log: no go, or no logrus in {LOGRUS_GOPATH}", file=sys.stderr)
        return
    program = (Path(__file__).resolve().parent / "logrus_fixtures.go").read_text()
    run_go(program, {"GOPATH": LOGRUS_GOPATH}, (("json", "logrus-json.log"), ("text", "logrus-text.log")))


def logger() -> None:
    if not shutil.which("logger"):
        print("skipped logger-*.log: no logger", file=sys.stderr)
        return
    for flag, name in (("--rfc5424", "logger-rfc5424.log"), ("--rfc3164", "logger-rfc3164.log")):
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "log.sock")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(path)
            lines = []
            for message in MESSAGES:
                subprocess.run(
                    ["logger", flag, "--socket", path, "-t", "nats-server", "--id=1035", "-p", "user.err",
                     "[ERR] " + message],
                    check=True,
                )
                line = sock.recv(65536).decode("utf-8")
                # Fixed time and host: the run's own are not reproducible.
                line = re.sub(r"^(<\d+>1) \S+ \S+", r"\1 2026-11-29T17:20:35.000001+00:00 host-a", line)
                line = re.sub(r"^(<\d+>)\w{3} [ \d]\d \d\d:\d\d:\d\d \S+", r"\1Nov 29 17:20:35 host-a", line)
                line = re.sub(r'timeQuality tzKnown="\d" isSynced="\d"( syncAccuracy="\d+")?', "timeQuality", line)
                lines.append(line)
            sock.close()
        write(name, lines)


PRODUCERS = {
    "built_to_rules": built_to_rules,
    "python_json_logger": python_json_logger,
    "structlog": structlog_json,
    "pino": pino,
    "go": go,
    "logrus": logrus,
    "logger": logger,
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[1:] or list(PRODUCERS)
    unknown = [name for name in wanted if name not in PRODUCERS]
    if unknown:
        sys.exit(f"unknown producer(s) {', '.join(unknown)}; known: {', '.join(PRODUCERS)}")
    write("bare.log", MESSAGES + [LONG])
    for name in wanted:
        PRODUCERS[name]()


if __name__ == "__main__":
    main()
