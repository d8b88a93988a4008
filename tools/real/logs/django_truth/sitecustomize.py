"""Where Django raised or logged what a case's process wrote, taken as it
happens and written to $REAL_LOGS_TRUTH (one JSON object a line), without
changing what the process writes:

* every log record at WARNING or above: its logger call's file and line,
  its message and arguments, and for a record with an exception the
  exception's class, text and innermost frame in the django package (and
  those of the exception it was raised from, where it has that one's text);
* every system-check message: where it was made and its id;
* an exception that a management command or the interpreter reports: its
  class, text and innermost django frame (argparse's usage errors: the
  message, from Python's argparse);
* what else Django writes to stderr (and to stdout styled as an error, a
  warning or a notice): the django frame that wrote it.

Loaded as `sitecustomize` (the harness puts this directory on PYTHONPATH)."""
import json
import logging
import os
import sys
import traceback

_OUT = os.environ.get("REAL_LOGS_TRUTH")


def _write(entry):
    with open(_OUT, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True, default=repr) + "\n")


def _django_dir():
    import django

    return os.path.dirname(django.__file__)


def _django_path(filename):
    base = _django_dir()
    filename = os.path.abspath(filename)
    if filename.startswith(base + os.sep):
        return "django/" + os.path.relpath(filename, base).replace(os.sep, "/")
    return None


def _django_frames(frames, skip=()):
    """[file, line] of each frame in the django package, outermost first."""
    out = []
    for frame in frames:
        file = _django_path(frame.filename)
        if file is not None and file not in skip:
            out.append([file, frame.lineno])
    return out


def _innermost(frames, skip=()):
    found = _django_frames(frames, skip)
    return found[-1] if found else None


def _exception(exc):
    tb = exc.__traceback__
    entry = {
        "formatted": "".join(traceback.format_exception(type(exc), exc, tb)),
        "class": type(exc).__name__,
        "classes": [c.__name__ for c in type(exc).__mro__],
        "text": str(exc),
        "where": _innermost(traceback.extract_tb(tb)) if tb else None,
    }
    # `except LookupError as err: raise CommandError(str(err))`: the message
    # was written where the exception it was raised from was.
    inner = exc.__cause__ or exc.__context__
    if inner is not None and inner.__traceback__ is not None and str(inner) == str(exc):
        entry["message_from"] = _exception(inner)
    return entry


if _OUT:
    _call_handlers = logging.Logger.callHandlers

    def _record_then_handle(self, record):
        if record.levelno >= logging.WARNING:
            entry = {
                "kind": "log",
                "logger": record.name,
                "level": record.levelname,
                "where": [_django_path(record.pathname), record.lineno],
                "msg": record.msg if isinstance(record.msg, str) else str(record.msg),
                "args": list(record.args) if isinstance(record.args, tuple) else record.args,
                "message": record.getMessage(),
                # The django frames that led to the call: a helper's
                # (django.utils.log.log_response) caller chose the message.
                "stack": _django_frames(traceback.extract_stack()[:-1]),
            }
            if record.exc_info and record.exc_info[1] is not None:
                entry["exception"] = _exception(record.exc_info[1])
            _write(entry)
        return _call_handlers(self, record)

    logging.Logger.callHandlers = _record_then_handle

    _excepthook = sys.excepthook

    def _record_then_report(kind, value, tb):
        _write({"kind": "uncaught", "exception": _exception(value)})
        return _excepthook(kind, value, tb)

    sys.excepthook = _record_then_report

    import argparse

    _error = argparse.ArgumentParser.error

    def _record_usage_error(self, message):
        _write({"kind": "usage", "message": message, "prog": self.prog})
        return _error(self, message)

    argparse.ArgumentParser.error = _record_usage_error

    import importlib.abc
    import importlib.util

    def _hook_checks(messages):
        init = messages.CheckMessage.__init__

        def _record_then_init(self, level, msg, hint=None, obj=None, id=None):
            init(self, level, msg, hint=hint, obj=obj, id=id)
            _write({"kind": "check", "id": id, "level": level, "msg": msg, "hint": hint, "text": str(self),
                    "where": _innermost(traceback.extract_stack()[:-1], skip=("django/core/checks/messages.py",))})

        messages.CheckMessage.__init__ = _record_then_init

    class _AfterImport(importlib.abc.MetaPathFinder):
        """Patches django.core.checks.messages once it is imported: a
        finder, not a wrapped __import__, so that no frame of this module
        shows in the tracebacks the process writes."""

        def find_spec(self, name, path, target=None):
            if name != "django.core.checks.messages":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            exec_module = spec.loader.exec_module

            def exec_then_patch(module):
                exec_module(module)
                _hook_checks(module)

            spec.loader.exec_module = exec_then_patch
            return spec

    sys.meta_path.insert(0, _AfterImport())

    import linecache

    class _TracedStream:
        """sys.stderr (or sys.stdout), noting the django frame of each
        write that is not a log record's, a traceback's or argparse's
        (ManagementUtility's `Unknown command`, a command's notices); on
        stdout only a write styled as an error, a warning or a notice."""

        def __init__(self, stream, name):
            self._stream, self._name = stream, name

        def write(self, text):
            stack = traceback.extract_stack()[:-1]
            if text.strip() and not any(f.filename.endswith(("logging/__init__.py", "argparse.py", "traceback.py"))
                                        for f in stack):
                # The caller of a command's OutputWrapper.write, not it.
                frames = [f for f in stack if _django_path(f.filename)
                          and not (f.name == "write" and f.filename.endswith("management/base.py"))]
                frame = frames[-1] if frames else None
                if frame is not None:
                    call = "".join(linecache.getline(frame.filename, frame.lineno + i) for i in range(-2, 3))
                    styled = next((s for s in ("ERROR", "WARNING", "NOTICE") if f"style.{s}" in call), None)
                    handled = sys.exc_info()[1]
                    if frame.name == "run_from_argv" and handled is not None:
                        # BaseCommand.run_from_argv writing the CommandError
                        # (or SystemCheckError) it caught.
                        _write({"kind": "command", "exception": _exception(handled)})
                    elif self._name == "stderr" or styled:
                        _write({"kind": "write", "stream": self._name, "style": styled, "text": text,
                                "where": [_django_path(frame.filename), frame.lineno]})
            return self._stream.write(text)

        def __getattr__(self, name):
            return getattr(self._stream, name)

    sys.stderr = _TracedStream(sys.stderr, "stderr")
    sys.stdout = _TracedStream(sys.stdout, "stdout")
