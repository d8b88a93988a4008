#!/usr/bin/env bash
# Writes errcat/tests/data/events/ from the real programs: CPython's own
# exception chains (chains.py), Django 5.2.19's log of failed requests
# (django_site.py, Django in the venv tools/real/generate.sh makes under
# target/) and Java's stack traces through SLF4J's simple logger (App.java).
# The logs are checked in, so that errcat/tests/it/events.rs needs none of
# these programs; paths are written relative to this directory and to
# site-packages, times are fixed.
#
#     bash tools/real/events/generate.sh    # needs python3, javac/java, libslf4j-java
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
dest="$root/errcat/tests/data/events"
mkdir -p "$dest"
cd "$here"

# The uncaught chain at its end makes python3 exit with 1.
python3 chains.py > "$dest/python-chains.log" 2>&1 || true
sed -i "s|$here/||" "$dest/python-chains.log"

venv="$root/target/real-venv"
if ! "$venv/bin/python" -c 'import django, sys; sys.exit(django.__version__ != "5.2.19")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q django==5.2.19
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$venv/bin/python" -W ignore django_site.py > "$dest/django-requests.log" 2>&1
sed -i "s|$here/||; s|$site/||" "$dest/django-requests.log"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
jars=/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-simple.jar
javac -d "$work" -cp "$jars" App.java
# The uncaught exception at its end makes java exit with 1.
java -cp "$work:$jars" App > "$dest/java-slf4j.log" 2>&1 || true
