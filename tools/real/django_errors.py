#!/usr/bin/env python3
"""Django 5.2.19 raising and logging its own errors, through its real API.

    tools/real/django_errors.py CORPUS_DIR > tools/real/golden/django.jsonl

Run with a Python that has Django 5.2.19 (tools/real/generate.sh makes a
venv for it). Every case calls Django as an application would, with wrong
input or a wrong set-up: forms and validators, templates, URL reversing,
the ORM on an in-memory SQLite database, settings, signing, management
commands and requests through the test client. What Django raises, and
what its loggers write (captured with a handler of Python's logging), is
one golden line.

The truth of each message is where Django raised or logged it, never its
text: the innermost frame of the traceback inside the django package (for
a log record, the logger call's file and line, or the traceback of the
exception it carries) is looked up among the corpus records by `filePath`
and the `sourceCodeStart`..`sourceCodeEnd` lines of the call. A message
raised where no record is (messages from `default_error_messages` dicts,
class attributes, variables: see the corpus README) gets no expected
record: a scanner is to find nothing there, or it reports a wrong record.

Values are known where Django keeps them apart from the text: the `params`
of a `ValidationError` and the `args` of a log record, each rendered with
its own conversion as `%` renders it.
"""

import datetime
import decimal
import json
import logging
import os
import re
import sys
import traceback
import types

import django
from django.conf import settings

CORPUS = sys.argv[1]
# Commands name the program in their messages (`Type 'manage.py help ...'`).
sys.argv = ["manage.py"]
# What commands print goes to stderr: stdout is the golden file's.
GOLDEN_OUT, sys.stdout = sys.stdout, sys.stderr
DJANGO_DIR = os.path.dirname(django.__file__)

urls = types.ModuleType("realurls")
sys.modules["realurls"] = urls

settings.configure(
    DEBUG=True,
    SECRET_KEY="real-programs",
    ALLOWED_HOSTS=["testserver"],
    ROOT_URLCONF="realurls",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.sessions"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": False}],
    MIDDLEWARE=["django.middleware.common.CommonMiddleware", "django.middleware.csrf.CsrfViewMiddleware"],
    USE_TZ=True,
    LOGGING_CONFIG=None,
)
django.setup()

from django import forms  # noqa: E402
from django.apps import apps  # noqa: E402
from django.contrib.auth.models import Group, Permission, User  # noqa: E402
from django.core import signing, validators  # noqa: E402
from django.core.exceptions import PermissionDenied, SuspiciousOperation, ValidationError  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, models, transaction  # noqa: E402
from django.db.models import Count, F, Q  # noqa: E402
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict, StreamingHttpResponse  # noqa: E402
from django.template import Context, Engine  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path, re_path, reverse  # noqa: E402
import django.contrib.auth as auth  # noqa: E402
import django.contrib.auth.hashers as hashers  # noqa: E402
import django.contrib.auth.models as auth_models  # noqa: E402
import django.contrib.auth.password_validation as password_validation  # noqa: E402
import django.contrib.auth.tokens as auth_tokens  # noqa: E402
import django.contrib.sessions.backends.cache as cache_sessions  # noqa: E402
import django.contrib.sessions.backends.db as db_sessions  # noqa: E402
import django.contrib.sessions.backends.signed_cookies as signed_cookies  # noqa: E402
import django.core.cache as cache_module  # noqa: E402
import django.core.files.storage as storage_module  # noqa: E402
import django.core.paginator as paginator  # noqa: E402
import django.db as db  # noqa: E402
import django.http as http  # noqa: E402
import django.shortcuts as shortcuts  # noqa: E402
import django.template as template_module  # noqa: E402
import django.test as django_test  # noqa: E402
import django.urls as urls_module  # noqa: E402
import django.utils.http as http_utils  # noqa: E402
import django.utils.module_loading as module_loading  # noqa: E402
import django.views.generic as generic_views  # noqa: E402
import django.views.static as static_views  # noqa: E402

# The query log's duration (`(%.3f) %s; args=%s; alias=%s`) from a clock
# that ticks half a millisecond a call, so that the golden file is the same
# at every run; everything else is Django's own.
import django.db.backends.utils as db_utils  # noqa: E402


class _Clock:
    now = 0.0

    def monotonic(self):
        self.now += 0.0005
        return self.now


db_utils.time = _Clock()

# Random strings (session keys, CSRF secrets) from a seeded generator, for
# the same reason.
import random  # noqa: E402

import django.utils.crypto as crypto_utils  # noqa: E402

crypto_utils.secrets = types.SimpleNamespace(choice=random.Random(2026).choice,
                                             compare_digest=crypto_utils.secrets.compare_digest)


def view_ok(request, **kwargs):
    return HttpResponse("ok")


def view_none(request):
    return None


def view_denied(request):
    raise PermissionDenied


def view_suspicious(request):
    raise SuspiciousOperation("the request looked wrong")


def view_query(request):
    return HttpResponse(str(User.objects.filter(nosuch=1).count()))


urls.view_none = view_none
urls.urlpatterns = [
    path("a/<int:pk>/", view_ok, name="detail"),
    path("b/<slug:slug>/<int:year>/", view_ok, name="archive"),
    path("none/", view_none, name="none"),
    path("denied/", view_denied),
    path("suspicious/", view_suspicious),
    path("query/", view_query),
    path("post/", view_ok),
    path("ns/", include(([path("x/", view_ok, name="x")], "inner"), namespace="inner")),
]

# ---------------------------------------------------------------- capture

LINE_FORMAT = logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s")
TIME = datetime.datetime(2026, 12, 1, 10, 0, 0, tzinfo=datetime.timezone.utc).timestamp()


class Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


capture = Capture()
root = logging.getLogger("django")
root.addHandler(capture)
root.setLevel(logging.DEBUG)
root.propagate = False


# The records' lookup by place, shared with the log harnesses.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "logs"))
from records import load_by_file, records_at as records_in  # noqa: E402 (tools/real/logs/records.py)

RECORDS = load_by_file(CORPUS)


def records_at(file, line, raised=None):
    """The ids of the records whose call spans this line of this file; for
    an exception, those of a `raise` of its class (or a base of it): an
    exception of another class at that line (an IndexError while building
    the message) was not raised by that statement."""
    names = {c.__name__ for c in type(raised).__mro__} if raised is not None else None
    return records_in(RECORDS, file, line, names)


def django_path(filename):
    filename = os.path.abspath(filename)
    if not filename.startswith(DJANGO_DIR + os.sep):
        return None
    return "django/" + os.path.relpath(filename, DJANGO_DIR).replace(os.sep, "/")


def innermost_django_frame(tb):
    where = None
    for frame in traceback.extract_tb(tb):
        file = django_path(frame.filename)
        if file is not None:
            where = (file, frame.lineno)
    return where


SPEC = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<spec>[-#0 +]*(?:\d+)?(?:\.\d+)?[diouxXeEfFgGcrsa%])")


def percent_values(fmt, args):
    """Each placeholder's value as `%` renders it alone: a list for
    positional args, a dict for `%(name)s`."""
    if not isinstance(fmt, str) or args is None:
        return None
    named = isinstance(args, dict)
    values = {} if named else []
    index = 0
    for m in SPEC.finditer(fmt):
        if m.group("spec") == "%":
            continue
        if named:
            key = m.group("key")
            if key is None or key not in args:
                return None
            values[key] = ("%" + m.group("spec")) % (args[key],)
        else:
            if index >= len(args):
                return None
            values.append(("%" + m.group("spec")) % (args[index],))
            index += 1
    return values


GOLDEN = []
SUMMARY = {"cases": 0, "no error": [], "machine-specific": 0}


def log_line(level, logger, message):
    record = logging.LogRecord(logger, level, __file__, 0, "%s", (message,), None)
    record.created = TIME
    record.msecs = 0.0
    return LINE_FORMAT.format(record).replace(
        LINE_FORMAT.formatTime(record), "2026-12-01 10:00:00,000"
    )


def machine_specific(text):
    """A message holding this machine's paths or memory addresses (the
    debug page's variable lookups print tracebacks' frames): left out,
    as the golden files are the same on every machine."""
    return DJANGO_DIR in text or re.search(r" at 0x[0-9a-f]+", text) is not None


def add(case, kind, text, where, values=None, error_class=None, line=None, raised=None):
    if machine_specific(text) or machine_specific(line or ""):
        SUMMARY["machine-specific"] += 1
        return
    expected = records_at(*where, raised) if where else []
    GOLDEN.append(
        {
            "program": "django",
            "case": case,
            "kind": kind,
            "class": error_class,
            "text": text,
            "line": line,
            "where": f"{where[0]}:{where[1]}" if where else None,
            "expected": expected,
            "values": values,
        }
    )


def exception_messages(exc):
    """(text, values) of each message an exception holds, as `str()`
    would show them without a KeyError's quotes; a ValidationError's
    messages one by one, with their params."""
    if isinstance(exc, ValidationError):
        out = []
        for error in exc.error_list:
            # Django's own rendering (`message % params`, a lazy plural
            # given its number).
            text = next(iter(error))
            message, params = error.message, error.params
            known = isinstance(message, str) and params
            out.append((text, percent_values(message, params) if known else None))
        return out
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        return [(exc.args[0], None)]
    return [(str(exc), None)]


def add_exception(case, exc):
    where = innermost_django_frame(exc.__traceback__)
    name = type(exc).__name__
    for text, values in exception_messages(exc):
        add(case, "exception", text, where, values, name, log_line(logging.ERROR, "app", f"{name}: {text}"), exc)


def add_log(case, record):
    text = record.getMessage()
    where = None
    if record.exc_info and record.exc_info[1] is not None and not isinstance(record.msg, str):
        where = innermost_django_frame(record.exc_info[2])
    if where is None:
        file = django_path(record.pathname)
        where = (file, record.lineno) if file else None
    values = percent_values(record.msg, record.args) if record.args else None
    # The line as the handler writes it, without the traceback it appends
    # after the message (frames of this machine's paths).
    bare = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None, "stack_info": None})
    formatted = LINE_FORMAT.format(bare)
    stamp = LINE_FORMAT.formatTime(bare)
    line = formatted.replace(stamp, "2026-12-01 10:00:00,000", 1)
    add(case, "log", text, where, values, record.levelname, line)
    # The exception a log record carries was raised where its traceback
    # says: one more message, with its own truth.
    if record.exc_info and record.exc_info[1] is not None:
        add_exception(case + " (logged exception)", record.exc_info[1])


def run(case, fn):
    SUMMARY["cases"] += 1
    capture.records.clear()
    raised = False
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 (every error Django raises is a case)
        raised = True
        add_exception(case, exc)
    except SystemExit:
        # A command that wrote its error to stderr and exited (captured
        # below as what it wrote is not an exception of its own).
        raised = True
    logged = list(capture.records)
    capture.records.clear()
    for record in logged:
        add_log(case, record)
    if not raised and not logged:
        SUMMARY["no error"].append(case)


# ------------------------------------------------------------------ cases


def evaluate(result):
    """A QuerySet runs its query (where most of its errors are raised)."""
    return list(result) if isinstance(result, models.QuerySet) else result


call_command("migrate", run_syncdb=True, verbosity=0)
JOINED = datetime.datetime(2026, 12, 1, 9, 0, 0, tzinfo=datetime.timezone.utc)
alice = User.objects.create(username="alice", email="alice@example.org", date_joined=JOINED)
User.objects.create(username="bob", email="bob@example.org", date_joined=JOINED)
staff = Group.objects.create(name="staff")

BAD_TEMPLATES = [
    "{% for x %}{% endfor %}",
    "{% for x in %}{% endfor %}",
    "{% for x in y %}",
    "{% if %}{% endif %}",
    "{% if a == %}{% endif %}",
    "{% if a b %}{% endif %}",
    "{% if and %}{% endif %}",
    "{% if a not b %}{% endif %}",
    "{% if a %}{% else %}{% else %}{% endif %}",
    "{% cycle %}",
    "{% cycle a b as %}",
    "{% firstof %}",
    "{% load nosuchlib %}",
    "{% load thing from nosuchlib %}",
    "{% url %}",
    "{% url 'detail' as %}",
    "{% with %}{% endwith %}",
    "{% widthratio a b %}",
    "{% widthratio a b c as %}",
    "{% now %}",
    "{% regroup %}",
    "{% regroup people by %}",
    "{% regroup people by gender into list %}",
    "{% regroup people xy gender as list %}",
    "{% templatetag %}",
    "{% templatetag nosuchbit %}",
    "{% autoescape %}{% endautoescape %}",
    "{% autoescape maybe %}{% endautoescape %}",
    "{% filter escape %}{% endfilter %}",
    "{% filter safe %}{% endfilter %}",
    "{% ifchanged %}",
    "{% nosuchtag %}",
    "{{ x|nosuchfilter }}",
    "{{ }}",
    "{% %}",
    "{{ x|add }}",
    "{{ x|upper:1 }}",
    "{{ x|default:'a':'b' }}",
    "{{ x|'y' }}",
    "{% extends %}",
    "{% extends 'a.html' %}{% extends 'b.html' %}",
    "{% block %}{% endblock %}",
    "{% block a %}{% endblock %}{% block a %}{% endblock %}",
    "{% block a %}{% endblock b %}",
    "{% include %}",
    "{% include 'x.html' with %}",
    "{% include 'x.html' only only %}",
    "{% include 'x.html' nosuchoption %}",
    "{% lorem 1 2 3 4 %}",
    "{% resetcycle a b %}",
    "{% resetcycle a %}",
    "{% resetcycle %}",
    "{% spaceless x %}{% endspaceless %}",
    "{% verbatim %}",
    "{% comment %}",
    "{% csrf_token x %}",
    "{% debug x %}",
    "{% querystring a %}",
    "{% querystring a=1 a=2 %}",
    "{% load i18n %}{% trans %}",
    "{% load i18n %}{% translate 'a' noop context %}",
    "{% load i18n %}{% translate 'a' as %}",
    "{% load i18n %}{% translate 'a' nosuchoption %}",
    "{% load i18n %}{% blocktranslate foo %}{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate count %}{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate with %}{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate %}{% if x %}{% endif %}{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate count c=1 %}a{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate asvar %}{% endblocktranslate %}",
    "{% load i18n %}{% blocktranslate context %}{% endblocktranslate %}",
    "{% load i18n %}{% get_current_language %}",
    "{% load i18n %}{% get_available_languages %}",
    "{% load i18n %}{% get_language_info %}",
    "{% load i18n %}{% get_language_info_list %}",
    "{% load i18n %}{% get_current_language_bidi %}",
    "{% load i18n %}{% language %}{% endlanguage %}",
    "{% load static %}{% static %}",
    "{% load static %}{% get_static_prefix as %}",
    "{% load tz %}{% localtime maybe %}{% endlocaltime %}",
    "{% load tz %}{% localtime on off %}{% endlocaltime %}",
    "{% load tz %}{% timezone %}{% endtimezone %}",
    "{% load tz %}{% get_current_timezone %}",
    "{% load l10n %}{% localize maybe %}{% endlocalize %}",
    "{% load l10n %}{% localize on off %}{% endlocalize %}",
    "{% load cache %}{% cache %}{% endcache %}",
    "{% load cache %}{% cache 10 %}{% endcache %}",
]

for source in BAD_TEMPLATES:
    run(f"template/syntax {source}", lambda source=source: Engine.get_default().from_string(source))


class Exploding:
    @property
    def value(self):
        raise RuntimeError("the property failed")


def render(source, context):
    return Engine.get_default().from_string(source).render(Context(context))


run("template/missing template", lambda: Engine.get_default().get_template("nosuch.html"))
run("template/include missing", lambda: render("{% include 'nosuch.html' %}", {}))
run("template/variable raising", lambda: render("{{ thing.value }}", {"thing": Exploding()}))
run("template/variable underscore", lambda: render("{{ thing._private }}", {"thing": alice}))
run("template/widthratio bad", lambda: render("{% widthratio a b 100 %}", {"a": "x", "b": 0}))
run("template/cycle undefined", lambda: render("{% cycle name %}", {}))
run("template/url no reverse", lambda: render("{% url 'nosuch' %}", {}))
run("template/url bad args", lambda: render("{% url 'detail' 'x' %}", {}))
run("template/now bad", lambda: render("{% now 'Y' as %}", {}))
run("template/date filter", lambda: render("{{ d|date:'Q' }}", {"d": None}))
run("template/divisibleby zero", lambda: render("{{ 4|divisibleby:0 }}", {}))
run("template/dictsort", lambda: render("{{ items|dictsort:'nosuch'|first }}", {"items": [{"a": 1}]}))

# URLs
run("urls/reverse unknown name", lambda: reverse("nosuch"))
run("urls/reverse no arguments", lambda: reverse("detail"))
run("urls/reverse wrong argument", lambda: reverse("detail", args=["abc"]))
run("urls/reverse wrong kwargs", lambda: reverse("detail", kwargs={"nope": 1}))
run("urls/reverse two patterns", lambda: reverse("archive", args=["x"]))
run("urls/reverse mixed", lambda: reverse("detail", args=[1], kwargs={"pk": 1}))
run("urls/reverse unknown namespace", lambda: reverse("nosuchns:x"))
run("urls/reverse nested namespace", lambda: reverse("inner:deeper:x"))
run("urls/reverse view path", lambda: reverse("realurls.view_none", args=[1]))
run("urls/bad converter", lambda: path("<nosuchconv:x>/", view_ok))
run("urls/bad parameter", lambda: path("<int:1x>/", view_ok))
run("urls/whitespace", lambda: path("< int:x>/", view_ok))
run("urls/view not callable", lambda: path("a/", "notaview"))
run("urls/kwargs not dict", lambda: path("a/", view_ok, ["x"]))
run("urls/include namespace", lambda: include([path("x/", view_ok)], namespace="ns"))
run("urls/include tuple", lambda: include(("a", "b", "c")))
run("urls/bad regex", lambda: re_path(r"(unclosed", view_ok).pattern.regex)
run("urls/resolve", lambda: urls_module.resolve("/nowhere/"))

# ORM
orm = [
    ("filter unknown field", lambda: User.objects.filter(nosuch=1)),
    ("filter unknown lookup", lambda: User.objects.filter(username__nosuch=1)),
    ("filter join unknown", lambda: User.objects.filter(groups__nosuch=1)),
    ("exclude unknown field", lambda: User.objects.exclude(nosuch=1)),
    ("get missing", lambda: User.objects.get(pk=999)),
    ("get missing group", lambda: Group.objects.get(name="nobody")),
    ("get several", lambda: User.objects.get(is_active=True)),
    ("negative index", lambda: User.objects.all()[-1]),
    ("negative slice", lambda: User.objects.all()[-2:]),
    ("index by str", lambda: User.objects.all()["a"]),
    ("step slice", lambda: list(User.objects.all()[::0])),
    ("filter after slice", lambda: User.objects.all()[:1].filter(username="a")),
    ("order after slice", lambda: User.objects.all()[:1].order_by("username")),
    ("combine after slice", lambda: User.objects.all()[:1] | User.objects.all()),
    ("combine models", lambda: User.objects.all() | Group.objects.all()),
    ("filter after union", lambda: User.objects.all().union(User.objects.all()).filter(username="a")),
    ("order unknown", lambda: list(User.objects.order_by("nosuch"))),
    ("values unknown", lambda: User.objects.values("nosuch")),
    ("values_list flat two", lambda: User.objects.values_list("id", "username", flat=True)),
    ("values_list flat named", lambda: User.objects.values_list("id", flat=True, named=True)),
    ("annotate conflict", lambda: User.objects.annotate(username=Count("id"))),
    ("annotate no alias", lambda: User.objects.annotate(Count("id") + 1)),
    ("aggregate no alias", lambda: User.objects.aggregate(Count("id") + 1)),
    ("aggregate not aggregate", lambda: User.objects.aggregate(x=F("id"))),
    ("in_bulk not unique", lambda: User.objects.in_bulk(field_name="first_name")),
    ("bulk_create batch", lambda: User.objects.bulk_create([User(username="c")], batch_size=0)),
    ("bulk_update no fields", lambda: User.objects.bulk_update([alice], fields=[])),
    ("bulk_update pk", lambda: User.objects.bulk_update([alice], fields=["id"])),
    ("bulk_update batch", lambda: User.objects.bulk_update([alice], fields=["email"], batch_size=-1)),
    ("bulk_update unsaved", lambda: User.objects.bulk_update([User(username="u")], fields=["email"])),
    ("latest without field", lambda: User.objects.latest()),
    ("dates kind", lambda: User.objects.dates("date_joined", "hour")),
    ("datetimes kind", lambda: User.objects.datetimes("date_joined", "fortnight")),
    ("dates order", lambda: User.objects.dates("date_joined", "day", order="up")),
    ("select_related unknown", lambda: list(User.objects.select_related("nosuch"))),
    ("prefetch unknown", lambda: list(User.objects.prefetch_related("nosuch"))),
    ("distinct on", lambda: list(User.objects.distinct("username"))),
    ("select_for_update outside", lambda: list(User.objects.select_for_update())),
    ("delete unsaved", lambda: User(username="x").delete()),
    ("m2m unsaved", lambda: User(username="x").groups.all()),
    ("update unknown", lambda: User.objects.filter(pk=1).update(nosuch=1)),
    ("update after slice", lambda: User.objects.all()[:1].update(email="a")),
    ("delete after slice", lambda: User.objects.all()[:1].delete()),
    ("delete distinct", lambda: User.objects.distinct().values("id").delete()),
    ("create unknown kwarg", lambda: User.objects.create(nosuch=1)),
    ("too many args", lambda: Group(1, "a", 3, 4)),
    ("get_or_create unknown", lambda: User.objects.get_or_create(nosuch=1, defaults={"x": 1})),
    ("update_or_create unknown", lambda: User.objects.update_or_create(username="alice", defaults={"nosuch": 1})),
    ("save update_fields", lambda: alice.save(update_fields=["nosuch"])),
    ("save force both", lambda: User(username="z").save(force_insert=True, force_update=True)),
    ("save force update no pk", lambda: User(username="z").save(force_update=True)),
    ("refresh unknown", lambda: alice.refresh_from_db(fields=["nosuch"])),
    ("iterator chunk", lambda: list(User.objects.iterator(chunk_size=0))),
    ("contains unsaved", lambda: User.objects.contains(User())),
    ("contains other model", lambda: User.objects.contains(staff)),
    ("only m2m", lambda: list(User.objects.only("groups"))),
    ("defer after values", lambda: User.objects.values("id").defer("username")),
    ("filter Q bad", lambda: User.objects.filter(Q(1))),
    ("filter isnull", lambda: list(User.objects.filter(username__isnull="yes"))),
    ("filter in not iterable", lambda: list(User.objects.filter(id__in=1))),
    ("extra after values", lambda: User.objects.values("id").extra(select={"a": "1"})),
    ("raw missing pk", lambda: list(User.objects.raw("SELECT username FROM auth_user"))),
    ("exists after union", lambda: User.objects.all().union(User.objects.all()).exclude(id=1)),
    ("group add wrong", lambda: alice.groups.add("staff")),
    ("permission unknown", lambda: Permission.objects.filter(content_type__nosuch=1)),
    ("reverse m2m set", lambda: setattr(staff, "user_set", [alice])),
    ("explain format", lambda: User.objects.all().explain(format="nosuch")),
    ("earliest both", lambda: User.objects.earliest("id", field_name="id")),
    ("first with order unknown", lambda: User.objects.order_by("-nosuch").first()),
    ("alias conflict", lambda: User.objects.alias(username=F("id"))),
    ("values expression", lambda: User.objects.values(Count("id"))),
    ("none filter", lambda: User.objects.filter(None)),
    ("pk unsaved m2m", lambda: staff.user_set.add(User(username="unsaved"))),
]
for name, fn in orm:
    run(f"orm/{name}", lambda fn=fn: evaluate(fn()))


def query_log():
    User.objects.filter(username="alice").exists()
    Group.objects.count()
    list(User.objects.filter(email__endswith="@example.org").values_list("id", flat=True))


run("orm/query log", query_log)

# Settings and the app registry
run("settings/configure twice", lambda: settings.configure())
run("settings/unknown connection", lambda: db.connections["nosuch"])
run("settings/unknown cache", lambda: cache_module.caches["nosuch"])
run("settings/unknown storage", lambda: storage_module.storages["nosuch"])
run("settings/unknown template engine",
    lambda: template_module.engines["nosuch"])
run("settings/import_string not a path", lambda: module_loading.import_string("nosuch"))
run("settings/import_string no attribute", lambda: module_loading.import_string("os.nosuch"))
run("settings/app label", lambda: apps.get_app_config("nosuch"))
run("settings/model label", lambda: apps.get_model("nosuch"))
run("settings/model missing", lambda: apps.get_model("auth.Nosuch"))
run("settings/model app missing", lambda: apps.get_model("nosuch.Model"))
run("settings/model without app",
    lambda: type("Stray", (models.Model,), {"__module__": "strayapp.models"}))


def user_model(setting):
    with django_test.override_settings(AUTH_USER_MODEL=setting):
        auth.get_user_model()


run("settings/AUTH_USER_MODEL form", lambda: user_model("nosuch"))
run("settings/AUTH_USER_MODEL missing", lambda: user_model("auth.Nosuch"))


def password_validators():
    from django.contrib.auth.password_validation import get_password_validators
    get_password_validators([{"NAME": "nosuch.Validator"}])


run("settings/password validators", password_validators)
run("settings/hasher unknown", lambda: hashers.get_hasher("nosuch"))
run("settings/password not str", lambda: hashers.make_password(1))
run("settings/identify hasher", lambda: hashers.identify_hasher("notahash"))
run("settings/password validate", lambda: password_validation.validate_password("a"))

# Signing
run("signing/loads garbage", lambda: signing.loads("garbage"))
run("signing/loads bad signature", lambda: signing.loads("eyJhIjoxfQ:1abc:bad"))
run("signing/unsign no separator", lambda: signing.Signer().unsign("novalue"))
run("signing/unsign mismatch", lambda: signing.Signer().unsign("value:badsignature"))
run("signing/unsafe separator", lambda: signing.Signer(sep="a"))
class _WallClock:
    """`time.time` for signing: a fixed instant, half a second later at each
    call, so that a signature's age is the same at every run."""

    now = 1_800_000_000.0

    def time(self):
        self.now += 0.5
        return self.now


signing.time = _WallClock()
run("signing/expired", lambda: signing.TimestampSigner().unsign(signing.TimestampSigner().sign("v"), max_age=0))
run("signing/timestamp bad", lambda: signing.TimestampSigner().unsign("v:notime:sig"))
run("signing/unsign object mismatch", lambda: signing.Signer().unsign_object("e30:bad"))

# Management commands
commands = [
    ("unknown command", ("nosuchcommand",), {}),
    ("migrate unknown app", ("migrate", "nosuchapp"), {}),
    ("unknown option", ("check",), {"nosuchopt": 1}),
    ("sqlmigrate unknown", ("sqlmigrate", "auth", "9999"), {}),
    ("sqlmigrate app", ("sqlmigrate", "nosuchapp", "0001"), {}),
    ("loaddata missing", ("loaddata", "nosuchfixture"), {}),
    ("loaddata none", ("loaddata",), {}),
    ("dumpdata unknown app", ("dumpdata", "nosuchapp"), {}),
    ("dumpdata unknown model", ("dumpdata", "auth.nosuch"), {}),
    ("dumpdata format", ("dumpdata",), {"format": "nosuch"}),
    ("startapp bad name", ("startapp", "1bad"), {}),
    ("startapp existing module", ("startapp", "os"), {}),
    ("startproject bad name", ("startproject", "1bad"), {}),
    ("sendtestemail none", ("sendtestemail",), {}),
    ("showmigrations unknown", ("showmigrations", "nosuchapp"), {}),
    ("squashmigrations unknown", ("squashmigrations", "auth", "9999"), {}),
    ("makemigrations unknown", ("makemigrations", "nosuchapp"), {}),
    ("migrate unknown migration", ("migrate", "auth", "9999"), {}),
    ("sqlsequencereset unknown", ("sqlsequencereset", "nosuchapp"), {}),
    ("sqlflush options", ("sqlflush",), {"nosuch": 1}),
    ("createcachetable", ("createcachetable",), {"database": "nosuch"}),
    ("changepassword unknown", ("changepassword", "nobody"), {}),
    ("optimizemigration unknown", ("optimizemigration", "auth", "9999"), {}),
    ("diffsettings", ("diffsettings",), {"default": "nosuch.settings"}),
    ("no color both", ("check",), {"no_color": True, "force_color": True}),
    ("inspectdb", ("inspectdb", "nosuch_table"), {"database": "nosuch"}),
    ("runserver bad address", ("runserver", "not:an:address"), {"use_reloader": False}),
    ("remove_stale", ("remove_stale_contenttypes",), {"database": "nosuch"}),
    ("makemessages", ("makemessages",), {}),
    ("compilemessages", ("compilemessages",), {"locale": ["xx"]}),
]
for name, args, options in commands:
    run(f"command/{name}", lambda args=args, options=options: call_command(*args, verbosity=0, **options))

# Forms and validators


class Contact(forms.Form):
    email = forms.EmailField()
    age = forms.IntegerField(min_value=18, max_value=120)
    name = forms.CharField(max_length=5, min_length=2)
    url = forms.URLField()
    when = forms.DateField()
    choice = forms.ChoiceField(choices=[("a", "A")])
    number = forms.DecimalField(max_digits=3, decimal_places=1)


def form_errors(data):
    form = Contact(data)
    form.is_valid()
    for name, errors in form.errors.as_data().items():
        for error in errors:
            try:
                raise error
            except ValidationError as exc:
                add_exception(f"forms/{name} {data.get(name)!r}", exc)


for data in [
    {},
    {"email": "nope", "age": "3", "name": "abcdefgh", "url": "nope", "when": "x", "choice": "z", "number": "123.45"},
    {"email": "a@", "age": "x", "name": "a", "url": "http://", "when": "2026-13-01", "choice": "b", "number": "x"},
]:
    form_errors(data)


def form_add_error():
    Contact({}).add_error("nosuch", "x")


def modelform_no_fields():
    forms.modelform_factory(User)


def modelform_unknown():
    class F(forms.ModelForm):
        class Meta:
            model = User
            fields = ["nosuch"]


def modelform_bare():
    class G(forms.ModelForm):
        class Meta:
            model = User


def modelform_no_model():
    class H(forms.ModelForm):
        pass
    H()


run("forms/add_error unknown field", form_add_error)
run("forms/bound field unknown", lambda: Contact()["nosuch"])
run("forms/modelform_factory fields", modelform_no_fields)
run("forms/modelform unknown field", modelform_unknown)
run("forms/modelform no fields", modelform_bare)
run("forms/modelform no model", modelform_no_model)
run("forms/formset management", lambda: forms.formset_factory(Contact)({}).is_valid() or
    forms.formset_factory(Contact)({}).non_form_errors().as_data()[0].__class__.__call__)
run("forms/formset management raise", lambda: (_ for _ in ()).throw(
    forms.formset_factory(Contact)({}).non_form_errors().as_data()[0]))
run("forms/widget choices", lambda: forms.Select(choices=[1]).render("x", "y"))
run("forms/field unknown kwarg", lambda: forms.CharField(nosuch=1))
run("forms/media", lambda: forms.Media() + 1)
run("forms/regex flags", lambda: validators.RegexValidator(re.compile("x"), flags=re.I))
run("forms/url schemes", lambda: validators.URLValidator()("ftp2://x"))
for value in ["1.2.3", "::gg", "nope"]:
    run(f"validators/ipv4 {value}", lambda value=value: validators.validate_ipv4_address(value))
    run(f"validators/ipv6 {value}", lambda value=value: validators.validate_ipv6_address(value))
    run(f"validators/ipv46 {value}", lambda value=value: validators.validate_ipv46_address(value))
run("validators/ip protocol", lambda: validators.ip_address_validators("nosuch", False))
run("validators/unpack ipv4", lambda: validators.ip_address_validators("ipv4", True))
for name, validator, value in [
    ("email", validators.validate_email, "nope"),
    ("slug", validators.validate_slug, "a b"),
    ("max value", validators.MaxValueValidator(10), 11),
    ("min value", validators.MinValueValidator(10), 9),
    ("max length", validators.MaxLengthValidator(2), "abc"),
    ("min length", validators.MinLengthValidator(5), "abc"),
    ("step", validators.StepValueValidator(3), 4),
    ("decimal digits", validators.DecimalValidator(3, 1), decimal.Decimal("123.45")),
    ("file extension", validators.FileExtensionValidator(["png"]), types.SimpleNamespace(name="a.gif")),
    ("null characters", validators.ProhibitNullCharactersValidator(), "a\x00b"),
    ("integer list", validators.validate_comma_separated_integer_list, "1,a"),
    ("integer", validators.validate_integer, "x"),
    ("url", validators.URLValidator(), "http://exa mple.org"),
]:
    run(f"validators/{name}", lambda validator=validator, value=value: validator(value))

# HTTP objects
run("http/status not int", lambda: HttpResponse(status="abc"))
run("http/status range", lambda: HttpResponse(status=99))
run("http/redirect scheme", lambda: HttpResponseRedirect("ftp://example.org/"))
run("http/json non-dict", lambda: JsonResponse([1, 2]))
run("http/content type twice", lambda: HttpResponse(content_type="text/plain", headers={"Content-Type": "x"}))
run("http/header newline", lambda: HttpResponse().__setitem__("X-A", "a\nb"))
run("http/streaming content", lambda: StreamingHttpResponse([b"x"]).content)
run("http/write streaming", lambda: StreamingHttpResponse([b"x"]).write("y"))
run("http/cookie both", lambda: HttpResponse().set_cookie("a", "b", max_age=1,
                                                          expires=datetime.datetime(2030, 1, 1)))
run("http/cookie samesite", lambda: HttpResponse().set_cookie("a", "b", samesite="sometimes"))
run("http/querydict immutable", lambda: QueryDict("a=1").__setitem__("a", "2"))
run("http/querydict key", lambda: QueryDict("a=1")["b"])


def body_after_read():
    from django.test import RequestFactory
    request = RequestFactory().post("/post/", {"a": "1"})
    request.POST
    request.read()
    request.body


def too_many_fields():
    from django.test import RequestFactory, override_settings
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=2):
        RequestFactory().get("/?a=1&b=2&c=3").GET


def bad_proxy_header():
    from django.test import RequestFactory, override_settings
    with override_settings(SECURE_PROXY_SSL_HEADER="x"):
        RequestFactory().get("/").is_secure()


def signed_cookie():
    from django.test import RequestFactory
    request = RequestFactory().get("/", HTTP_COOKIE="a=b:bad")
    request.get_signed_cookie("a")


run("http/body after read", body_after_read)
run("http/too many fields", too_many_fields)
run("http/proxy header", bad_proxy_header)
run("http/signed cookie", signed_cookie)

# Requests through the test client, with Django's loggers captured.
client = Client(raise_request_exception=False)
requests = [
    ("not found", lambda: client.get("/nope/")),
    ("not found deeper", lambda: client.get("/a/xyz/")),
    ("disallowed host", lambda: client.get("/a/1/", HTTP_HOST="evil.example.com")),
    ("disallowed host port", lambda: client.get("/a/1/", HTTP_HOST="evil.example.com:8080")),
    ("invalid host", lambda: client.get("/a/1/", HTTP_HOST="bad host!")),
    ("view returned None", lambda: client.get("/none/")),
    ("permission denied", lambda: client.get("/denied/")),
    ("suspicious", lambda: client.get("/suspicious/")),
    ("query error", lambda: client.get("/query/")),
    ("csrf missing", lambda: Client(enforce_csrf_checks=True).post("/post/", {"a": "1"})),
    ("session corrupted", lambda: Client(raise_request_exception=False, HTTP_COOKIE="sessionid=garbage").get("/a/1/")),
]
for name, fn in requests:
    run(f"request/{name}", fn)


def signal_robust():
    from django.dispatch import Signal

    def receiver(**kwargs):
        raise ValueError("the receiver failed")

    signal = Signal()
    signal.connect(receiver, weak=False)
    signal.send_robust(sender="realprograms")


def on_commit_robust():
    def callback():
        raise ValueError("the callback failed")

    with transaction.atomic():
        transaction.on_commit(callback, robust=True)


def session_corrupted():
    db_sessions.SessionStore().decode("garbage")


run("signals/send_robust", signal_robust)
run("transaction/on_commit robust", on_commit_robust)
run("sessions/decode garbage", session_corrupted)
run("transaction/atomic nested", lambda: transaction.savepoint_rollback("nosuch"))
run("transaction/mark rollback", lambda: transaction.set_rollback(True))

# More of the ORM: expressions, functions, indexes and constraints, model
# definitions, related managers, aggregates.
from django.db.models import (Avg, Case, CheckConstraint, Exists, ExpressionWrapper, Index, Max, OuterRef,  # noqa: E402
                              Subquery, Sum, UniqueConstraint, Value, When, Window)
from django.db.models.functions import Cast, Extract, Now, Trunc, TruncDate  # noqa: E402
from django.contrib.contenttypes.models import ContentType  # noqa: E402

MODEL_NUMBER = [0]


def model(bases=(models.Model,), meta=None, **fields):
    """A model class defined as an application would, each with a name of
    its own (in the auth app, whose registry takes it)."""
    MODEL_NUMBER[0] += 1
    attrs = {"__module__": "django.contrib.auth.models", **fields}
    attrs["Meta"] = type("Meta", (), {"app_label": "auth", **(meta or {})})
    return type(f"Real{MODEL_NUMBER[0]}", bases, attrs)


class AbstractThing(models.Model):
    name = models.CharField(max_length=10)

    class Meta:
        app_label = "auth"
        abstract = True


orm_more = [
    ("bitwise and", lambda: F("id") & F("id")),
    ("bitwise or", lambda: F("id") | F("id")),
    ("bitwise xor", lambda: F("id") ^ F("id")),
    ("bitwise rand", lambda: 1 & F("id")),
    ("bitwise ror", lambda: 1 | F("id")),
    ("combined unknown type", lambda: list(User.objects.annotate(x=F("username") + F("date_joined")))),
    ("mixed types", lambda: list(User.objects.annotate(x=ExpressionWrapper(F("id") + F("username"),
                                                                            output_field=None)))),
    ("empty when", lambda: When(Q(), then=1)),
    ("when no condition", lambda: When(then=1)),
    ("when bad condition", lambda: When(1, then=2)),
    ("case bad default", lambda: Case(1)),
    ("nulls both", lambda: F("id").asc(nulls_first=False)),
    ("nulls last false", lambda: F("id").desc(nulls_last=False)),
    ("window not window", lambda: Window(expression=F("id"))),
    ("window frame", lambda: models.RowRange(start=1, end=-1)),
    ("window frame start", lambda: models.RowRange(start="x")),
    ("aggregate of aggregate", lambda: User.objects.annotate(c=Count("id")).aggregate(Sum("c"))),
    ("aggregate distinct", lambda: Sum("id", distinct=True) and Max("id", distinct=True)),
    ("aggregate default", lambda: Count("id", default=0)),
    ("count star filter", lambda: Count("*", filter=Q(id=1))),
    ("avg on date", lambda: User.objects.aggregate(Avg("date_joined"))),
    ("aggregate bad filter", lambda: Count("id", filter=1)),
    ("extract no lookup", lambda: Extract("date_joined")),
    ("extract on text", lambda: list(User.objects.annotate(x=Extract("username", "year")))),
    ("extract hour on date", lambda: list(User.objects.annotate(d=TruncDate("date_joined")).annotate(
        x=Extract("d", "hour")))),
    ("trunc on text", lambda: list(User.objects.annotate(x=Trunc("username", "year")))),
    ("trunc tzinfo", lambda: list(User.objects.annotate(d=TruncDate("date_joined")).annotate(
        x=Trunc("d", "day", tzinfo=datetime.timezone.utc)))),
    ("trunc date to hour", lambda: list(User.objects.annotate(d=TruncDate("date_joined")).annotate(
        x=Trunc("d", "hour")))),
    ("trunc output", lambda: list(User.objects.annotate(x=Trunc("date_joined", "day",
                                                                 output_field=models.IntegerField())))),
    ("cast no output", lambda: Cast("id", None)),
    ("subquery many columns", lambda: list(User.objects.filter(id__in=Subquery(User.objects.values("id", "username"))))),
    ("exact queryset", lambda: list(User.objects.filter(id=User.objects.values("id")))),
    ("exists outer", lambda: list(User.objects.filter(Exists(Group.objects.filter(name=OuterRef("nosuch")))))),
    ("outer ref alone", lambda: list(User.objects.filter(id=OuterRef("id")))),
    ("raw value expression", lambda: list(User.objects.annotate(x=Value(object())))),
    ("now args", lambda: Now(1)),
    ("index fields string", lambda: Index(fields="username", name="ix")),
    ("index nothing", lambda: Index(name="ix")),
    ("index no name condition", lambda: Index(fields=["a"], condition=Q(a=1))),
    ("index condition not q", lambda: Index(fields=["a"], name="ix", condition=1)),
    ("index opclasses no name", lambda: Index(fields=["a"], opclasses=["x"])),
    ("index opclasses string", lambda: Index(fields=["a"], name="ix", opclasses="x")),
    ("index opclasses count", lambda: Index(fields=["a", "b"], name="ix", opclasses=["x"])),
    ("index fields and expressions", lambda: Index(F("a"), fields=["a"], name="ix")),
    ("index expressions no name", lambda: Index(F("a"))),
    ("index include no name", lambda: Index(fields=["a"], include=["b"])),
    ("index include string", lambda: Index(fields=["a"], name="ix", include="b")),
    ("index fields not strings", lambda: Index(fields=[1], name="ix")),
    ("index name digit", lambda: Index(fields=["a"], name="1ix").check_name()),
    ("index name long", lambda: Index(fields=["a"], name="i" * 40).check_name()),
    ("unique no name", lambda: UniqueConstraint(fields=["a"])),
    ("unique nothing", lambda: UniqueConstraint(name="u")),
    ("unique fields and expressions", lambda: UniqueConstraint(F("a"), fields=["a"], name="u")),
    ("unique condition not q", lambda: UniqueConstraint(fields=["a"], name="u", condition=1)),
    ("unique deferred condition", lambda: UniqueConstraint(
        fields=["a"], name="u", condition=Q(a=1), deferrable=models.Deferrable.DEFERRED)),
    ("unique deferred include", lambda: UniqueConstraint(
        fields=["a"], name="u", include=["b"], deferrable=models.Deferrable.DEFERRED)),
    ("unique deferrable bad", lambda: UniqueConstraint(fields=["a"], name="u", deferrable="later")),
    ("unique include string", lambda: UniqueConstraint(fields=["a"], name="u", include="b")),
    ("unique opclasses count", lambda: UniqueConstraint(fields=["a", "b"], name="u", opclasses=["x"])),
    ("unique nulls distinct expressions", lambda: UniqueConstraint(fields=["a"], name="u", nulls_distinct="x")),
    ("check constraint condition", lambda: CheckConstraint(condition=1, name="c")),
    ("check constraint no name", lambda: CheckConstraint(condition=Q(a=1))),
    ("model proxy no base", lambda: model(meta={"proxy": True})),
    ("model proxy abstract base", lambda: model(bases=(AbstractThing,), meta={"proxy": True})),
    ("model field clash", lambda: model(bases=(model(name=models.CharField(max_length=3)),),
                                        name=models.CharField(max_length=3))),
    ("model objects field", lambda: model(objects=models.CharField(max_length=3))),
    ("model meta invalid", lambda: model(meta={"nosuch_option": 1})),
    ("model abstract instantiated", lambda: AbstractThing()),
    ("model both args kwargs", lambda: Group(1, id=1)),
    ("model unhashable", lambda: hash(Group())),
    ("model get_field", lambda: User._meta.get_field("nosuch")),
    ("model manager", lambda: User._meta.managers_map["nosuch"]),
    ("model conflicting", lambda: [type("Dup", (models.Model,), {"__module__": "django.contrib.auth.models",
                                                              "Meta": type("Meta", (), {"app_label": "auth"})})
                                   for _ in range(2)]),
    ("model registered", lambda: apps.get_registered_model("auth", "nosuch")),
    ("refresh relation field", lambda: alice.refresh_from_db(fields=["groups__name"])),
    ("save unknown update_fields relation", lambda: alice.save(update_fields=["groups"])),
    ("fk wrong instance", lambda: Permission(content_type=alice)),
    ("m2m direct assignment", lambda: setattr(alice, "groups", [staff])),
    ("reverse fk unsaved", lambda: ContentType().permission_set.all()),
    ("reverse fk add wrong", lambda: ContentType.objects.get_for_model(User).permission_set.add(alice)),
    ("reverse fk add unsaved", lambda: ContentType.objects.get_for_model(User).permission_set.add(
        Permission(codename="x", name="x"))),
    ("m2m add wrong type", lambda: alice.groups.add(alice)),
    ("m2m through unsaved", lambda: User().groups.add(staff)),
    ("query wrong instance", lambda: list(Permission.objects.filter(content_type=alice))),
    ("filter lookup on relation", lambda: list(User.objects.filter(groups__name__nosuch=1))),
    ("filter invalid lookup expr", lambda: list(User.objects.filter(F("id").desc()))),
    ("order by expression agg", lambda: list(User.objects.order_by(Count("id")).values("id").distinct())),
    ("values_list unknown", lambda: list(User.objects.values_list("nosuch"))),
    ("extra both sides", lambda: User.objects.extra(select={"a": "1"}) | User.objects.extra(select={"b": "1"})),
    ("combine distinct fields", lambda: User.objects.distinct() | User.objects.all()),
    ("get after union", lambda: User.objects.all().union(User.objects.all()).get(id=1)),
    ("update after union", lambda: User.objects.all().union(User.objects.all()).update(email="x")),
    ("aggregate after distinct fields", lambda: User.objects.distinct("id").aggregate(Count("id"))),
    ("iterator prefetch no chunk", lambda: list(User.objects.prefetch_related("groups").iterator())),
    ("bulk_create conflicts", lambda: User.objects.bulk_create([User(username="q")], ignore_conflicts=True,
                                                               update_conflicts=True)),
    ("bulk_create update no fields", lambda: User.objects.bulk_create([User(username="q")], update_conflicts=True)),
    ("bulk_create unique fields", lambda: User.objects.bulk_create([User(username="q")], update_conflicts=True,
                                                                   update_fields=["email"])),
    ("bulk_create m2m update", lambda: User.objects.bulk_create([User(username="q")], update_conflicts=True,
                                                                update_fields=["groups"], unique_fields=["username"])),
    ("bulk_create parent", lambda: User.objects.bulk_create([alice])),
    ("get_or_create defaults relation", lambda: User.objects.get_or_create(username="alice",
                                                                           defaults={"groups__name": 1})),
    ("update relation", lambda: User.objects.update(groups=1)),
    ("update m2m", lambda: User.objects.update(groups__name="x")),
    ("annotate alias whitespace", lambda: User.objects.annotate(**{"a b": F("id")})),
    ("explain option", lambda: User.objects.explain(nosuch=True)),
    ("in_bulk distinct", lambda: User.objects.distinct("id").in_bulk()),
    ("select_related m2m", lambda: list(User.objects.select_related("groups"))),
    ("prefetch both", lambda: list(User.objects.prefetch_related("groups", "groups__nosuch"))),
    ("only and defer", lambda: list(User.objects.only("nosuch"))),
    ("defer unknown", lambda: list(User.objects.defer("nosuch"))),
    ("dates on text", lambda: list(User.objects.dates("username", "day"))),
    ("get_object_or_404 bad", lambda: shortcuts.get_object_or_404("User")),
    ("get_object_or_404 missing", lambda: shortcuts.get_object_or_404(
        User, pk=999)),
    ("get_list_or_404 bad", lambda: shortcuts.get_list_or_404("User")),
    ("get_list_or_404 empty", lambda: shortcuts.get_list_or_404(
        User, pk=999)),
    ("create_user no name", lambda: User.objects.create_user(username="")),
    ("create_superuser staff", lambda: User.objects.create_superuser("root", is_staff=False)),
    ("create_superuser superuser", lambda: User.objects.create_superuser("root", is_superuser=False)),
    ("with_perm backend", lambda: User.objects.with_perm("auth.add_user", backend=1)),
    ("has_perms not iterable", lambda: alice.has_perms("auth.add_user")),
    ("anonymous int", lambda: int(auth_models.AnonymousUser())),
    ("anonymous save", lambda: auth_models.AnonymousUser().save()),
    ("anonymous delete", lambda: auth_models.AnonymousUser().delete()),
    ("content type unknown", lambda: ContentType.objects.get_by_natural_key("nosuch", "x")),
    ("content type model gone", lambda: ContentType(app_label="nosuch", model="x").get_object_for_this_type()),
    ("field to_python int", lambda: models.IntegerField().to_python("x")),
    ("field prep int", lambda: list(User.objects.filter(id="x"))),
    ("fk bad target", lambda: models.ForeignKey(1, on_delete=models.CASCADE)),
    ("m2m bad target", lambda: models.ManyToManyField(1)),
    ("o2o bad target", lambda: models.OneToOneField(1, on_delete=models.CASCADE)),
    ("fk on_delete not callable", lambda: models.ForeignKey("auth.User", on_delete=None)),
    ("m2m through and table", lambda: model(m=models.ManyToManyField("auth.Group", through="x", db_table="y"))),
    ("cache incr missing", lambda: cache_module.cache.incr("missing-key")),
    ("cache decr missing", lambda: cache_module.cache.decr("missing-key")),
    ("cache incr_version missing", lambda: cache_module.cache.incr_version(
        "missing-key")),
    ("transaction rollback outside", lambda: transaction.set_rollback(True, using="default")),
    ("transaction get rollback outside", lambda: transaction.get_rollback()),
    ("savepoint in atomic forbidden", lambda: atomic_autocommit()),
    ("broken transaction", lambda: broken_transaction()),
    ("schema in atomic", lambda: schema_in_atomic()),
]


def atomic_autocommit():
    with transaction.atomic():
        transaction.set_autocommit(True)


def broken_transaction():
    from django.db import IntegrityError
    with transaction.atomic():
        try:
            Group.objects.create(name="staff")
        except IntegrityError:
            pass
        Group.objects.count()


def schema_in_atomic():
    with transaction.atomic():
        with connection.schema_editor() as editor:
            editor.create_model(model())


for name, fn in orm_more:
    run(f"orm/{name}", lambda fn=fn: evaluate(fn()))

# More templates: the template Library, variables, engines, filters at render time.
from django.template import Variable, engines  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

library = template_module.Library()
template_more = [
    ("library tag bad", lambda: library.tag("x", "y")),
    ("library filter bad", lambda: library.filter("x", "y")),
    ("library simple_tag bad", lambda: library.simple_tag(1, 2)),
    ("library takes_context", lambda: library.simple_tag(takes_context=True)(lambda: "")),
    ("library inclusion context", lambda: library.inclusion_tag("x.html", takes_context=True)(lambda: "")),
    ("variable underscore", lambda: Variable("a._b")),
    ("variable bad literal", lambda: Variable("'unclosed")),
    ("variable number attribute", lambda: Variable("1.x")),
    ("engine bad library", lambda: Engine(libraries={"bad": "nosuch.module.templatetags"})),
    ("engine loaders", lambda: Engine(loaders=[1]).get_template("x.html")),
    ("engine no loaders found", lambda: Engine(dirs=[], app_dirs=False).find_template("x.html")),
    ("engines unknown backend", lambda: engines["nosuch"]),
    ("render_to_string missing", lambda: render_to_string("nosuch.html")),
    ("context pop", lambda: Context().pop()),
    ("context update", lambda: Context().update(1)),
    ("render add bad", lambda: render("{{ a|date:1|add:b }}", {"a": 1, "b": object})),
    ("render cycle end", lambda: render("{% for x in xs %}{% cycle 'a' as c silent %}{% resetcycle c %}{% endfor %}",
                                        {"xs": [1]})),
    ("render filter raising", lambda: render("{{ x|truncatewords:'a' }}", {"x": "a b"})),
    ("render include loop", lambda: Engine(loaders=[("django.template.loaders.locmem.Loader",
                                                      {"a.html": "{% extends 'a.html' %}"})]).get_template("a.html")),
    ("render extends missing", lambda: Engine(loaders=[("django.template.loaders.locmem.Loader",
                                                         {"b.html": "{% extends 'nosuch.html' %}"})]
                                              ).get_template("b.html").render(Context())),
    ("render block.super base", lambda: Engine(loaders=[("django.template.loaders.locmem.Loader",
                                                          {"c.html": "{% block a %}{{ block.super }}{% endblock %}"})]
                                               ).get_template("c.html").render(Context())),
    ("render url bad kwargs", lambda: render("{% url 'detail' nope=1 %}", {})),
    ("render widthratio not number", lambda: render("{% widthratio a b c %}", {"a": 1, "b": 2, "c": "x"})),
    ("render now format", lambda: render("{% now 'Y' %}", {})),
    ("render regroup missing", lambda: render("{% regroup xs by k as g %}{{ g }}", {"xs": [{"j": 1}]})),
    ("render templatetag", lambda: render("{% templatetag openblock %}", {})),
    ("render json_script", lambda: render("{{ x|json_script:1 }}", {"x": object()})),
    ("render static missing", lambda: render("{% load static %}{% static 'x' %}", {})),
    ("render language", lambda: render("{% load i18n %}{% language 'xx' %}a{% endlanguage %}", {})),
    ("render language info", lambda: render("{% load i18n %}{% get_language_info for 'xx' as l %}", {})),
    ("render timezone", lambda: render("{% load tz %}{% timezone 'Nowhere/City' %}a{% endtimezone %}", {})),
    ("render cache fragment", lambda: render("{% load cache %}{% cache 'x' f %}a{% endcache %}", {})),
    ("render cache timeout", lambda: render("{% load cache %}{% cache t f %}a{% endcache %}", {"t": "soon"})),
    ("render blocktranslate count", lambda: render(
        "{% load i18n %}{% blocktranslate count n=x %}a{% plural %}b{% endblocktranslate %}", {"x": "many"})),
    ("render querystring", lambda: render("{% querystring 1 %}", {"request": None})),
]
for name, fn in template_more:
    run(f"template/{name}", fn)

# More management commands: commands defined as an application would.
from django.core.management.base import AppCommand, BaseCommand, CommandError, LabelCommand  # noqa: E402


class Unfinished(BaseCommand):
    pass


class UnfinishedLabel(LabelCommand):
    pass


class UnfinishedApp(AppCommand):
    pass


commands_more = [
    ("base no handle", lambda: call_command(Unfinished())),
    ("label no handle_label", lambda: call_command(UnfinishedLabel(), "x")),
    ("app no handle_app_config", lambda: call_command(UnfinishedApp(), "auth")),
    ("app unknown label", lambda: call_command(UnfinishedApp(), "nosuchapp")),
    ("requires checks", lambda: type("C", (BaseCommand,), {"requires_system_checks": "all"})()),
    ("colors both", lambda: BaseCommand(no_color=True, force_color=True)),
    ("colors both flags", lambda: Unfinished().run_from_argv(["manage.py", "unfinished", "--no-color",
                                                               "--force-color"])),
    ("makemigrations name", lambda: call_command("makemigrations", "auth", name="1 bad", dry_run=True, verbosity=0)),
    ("makemigrations empty", lambda: call_command("makemigrations", empty=True, verbosity=0)),
    ("makemigrations update", lambda: call_command("makemigrations", "contenttypes", update=True, verbosity=0)),
    ("makemessages domain", lambda: call_command("makemessages", domain="nosuch", locale=["xx"], verbosity=0)),
    ("loaddata stdin", lambda: call_command("loaddata", "-", verbosity=0)),
    ("loaddata format", lambda: call_command("loaddata", "x.nosuchformat", verbosity=0)),
    ("startapp destination", lambda: call_command("startapp", "realapp", "/nonexistent-real-dir", verbosity=0)),
    ("startapp no name", lambda: call_command("startapp", "", verbosity=0)),
    ("startapp template", lambda: call_command("startapp", "realapp2", "/tmp", template="nosuch://x", verbosity=0)),
    ("squash no migration", lambda: call_command("squashmigrations", "auth", "0001", "9999", verbosity=0)),
    ("migrate fake initial", lambda: call_command("migrate", "auth", "zero", "--plan", "--prune", verbosity=0)),
    ("sqlmigrate no migrations", lambda: call_command("sqlmigrate", "sessions", "nosuch", verbosity=0)),
    ("check tag", lambda: call_command("check", tags=["nosuchtag"], verbosity=0)),
    ("check deploy database", lambda: call_command("check", databases=["nosuch"], verbosity=0)),
    ("shell command", lambda: call_command("shell", interface="nosuch", verbosity=0)),
    ("dbshell", lambda: call_command("dbshell", database="nosuch", verbosity=0)),
    ("flush database", lambda: call_command("flush", database="nosuch", interactive=False, verbosity=0)),
    ("test runner", lambda: call_command("test", testrunner="nosuch.Runner", verbosity=0)),
    ("command error", lambda: (_ for _ in ()).throw(CommandError("raised by the application"))),
]
for name, fn in commands_more:
    run(f"command/{name}", fn)

# More of the rest: utilities, files, mail, serializers, i18n, paginator,
# sessions, views, auth, signing.
from django.core import mail, serializers  # noqa: E402
from django.core.files.base import File  # noqa: E402
from django.core.files.storage import FileSystemStorage  # noqa: E402
from django.utils import dateparse, text as text_utils, translation  # noqa: E402
from django.utils._os import safe_join  # noqa: E402

rest = [
    ("utils/base36 too large", lambda: http_utils.base36_to_int("z" * 14)),
    ("utils/base36 negative", lambda: http_utils.int_to_base36(-1)),
    ("utils/urlsafe base64", lambda: http_utils.urlsafe_base64_decode("!")),
    ("utils/safe_join", lambda: safe_join("/srv/app", "../etc/passwd")),
    ("utils/valid filename", lambda: text_utils.get_valid_filename("..")),
    ("utils/parse duration", lambda: dateparse.parse_datetime("2026-13-45T10:00:00")),
    ("utils/http date", lambda: http_utils.parse_http_date("not a date")),
    ("utils/url has allowed host", lambda: http_utils.urlencode({"a": object})),
    ("utils/urlencode none", lambda: http_utils.urlencode({"a": None})),
    ("files/reopen", lambda: File(None).open()),
    ("files/storage path", lambda: FileSystemStorage(location="/srv/media").path("../../etc/passwd")),
    ("files/storage name", lambda: FileSystemStorage(location="/srv/media").generate_filename("../x")),
    ("files/storage save none", lambda: FileSystemStorage(location="/srv/media").save(None, None)),
    ("files/storage url", lambda: FileSystemStorage(location="/srv/media", base_url=None).url("x")),
    ("mail/to not list", lambda: mail.EmailMessage(to="a@example.org")),
    ("mail/cc not list", lambda: mail.EmailMessage(cc="a@example.org")),
    ("mail/bcc not list", lambda: mail.EmailMessage(bcc="a@example.org")),
    ("mail/reply_to not list", lambda: mail.EmailMessage(reply_to="a@example.org")),
    ("mail/header newline", lambda: mail.EmailMessage("a\nb", "x", "f@example.org", ["t@example.org"]).message()),
    ("mail/attach both", lambda: mail.EmailMessage().attach(mail.message.MIMEText("x"), "y")),
    ("mail/attach none", lambda: mail.EmailMessage().attach()),
    ("mail/alternative", lambda: mail.EmailMultiAlternatives().attach_alternative(None, "text/html")),
    ("serializers/unknown", lambda: serializers.serialize("nosuch", [])),
    ("serializers/deserialize", lambda: list(serializers.deserialize("json", "garbage"))),
    ("serializers/deserialize model", lambda: list(serializers.deserialize(
        "json", '[{"model": "auth.nosuch", "pk": 1, "fields": {}}]'))),
    ("serializers/deserialize field", lambda: list(serializers.deserialize(
        "json", '[{"model": "auth.group", "pk": 1, "fields": {"nosuch": 1}}]'))),
    ("i18n/language info", lambda: translation.get_language_info("xx")),
    ("i18n/supported variant", lambda: translation.get_supported_language_variant("xx")),
    ("i18n/to_language", lambda: translation.trans_real.check_for_language(1)),
    ("paginator/page", lambda: paginator.Paginator([1], 1).page(9)),
    ("paginator/not int", lambda: paginator.Paginator([1], 1).page("x")),
    ("paginator/zero", lambda: paginator.Paginator([1], 1).page(0)),
    ("auth/authenticate backend", lambda: auth.load_backend("nosuch.B")),
    ("auth/hasher salt", lambda: hashers.PBKDF2PasswordHasher(
        ).encode("pw", "a$b")),
    ("auth/hasher password", lambda: hashers.PBKDF2PasswordHasher(
        ).encode(None, "salt")),
    ("auth/hasher library", lambda: hashers.ScryptPasswordHasher(
        )._load_library() and type("H", (hashers.BasePasswordHasher,),
                                   {"library": None})()._load_library()),
    ("auth/token generator", lambda: auth_tokens.PasswordResetTokenGenerator().check_token(alice, "bad-token")),
    ("sessions/encode", lambda: signed_cookies.SessionStore(session_key="garbage").load()),
    ("sessions/cache", lambda: cache_sessions.SessionStore().create() and None),
    ("views/date no year", lambda: dated_view("year")),
    ("views/date no month", lambda: dated_view("month")),
    ("views/date no day", lambda: dated_view("day")),
    ("views/date no week", lambda: dated_view("week")),
    ("views/date field", lambda: dated_view("date_field")),
    ("views/detail", lambda: detail_view()),
    ("views/template name", lambda: template_name_view()),
    ("views/redirect", lambda: generic_views.RedirectView().get_redirect_url()),
    ("views/list empty", lambda: list_view_empty()),
    ("views/static", lambda: static_views.serve(
        django_test.RequestFactory().get("/x"), "nosuch.txt", document_root="/nonexistent")),
    ("signing/dumps object", lambda: signing.dumps(object())),
    ("signing/timestamp max_age", lambda: signing.loads(signing.dumps({"a": 1}), max_age=-10)),
    ("signing/bad compress", lambda: signing.loads("." + signing.Signer(salt="django.core.signing").sign("e30"))),
    ("signing/algorithm", lambda: signing.Signer(algorithm="nosuch").sign("x")),
    ("http/cookie parse", lambda: HttpResponse().set_signed_cookie("a", object())),
    ("http/redirect length", lambda: HttpResponseRedirect("/" + "a" * 3000)),
    ("http/not modified content", lambda: setattr(http.HttpResponseNotModified(),
                                                  "content", b"x")),
    ("http/response tell", lambda: StreamingHttpResponse([b"x"]).tell()),
    ("http/response text", lambda: StreamingHttpResponse([b"x"]).text),
    ("http/file response", lambda: http.FileResponse(1)),
    ("http/request host", lambda: http.HttpRequest().get_host()),
    ("http/upload handlers", lambda: upload_handlers_after_post()),
    ("http/body too big", lambda: body_too_big()),
    ("http/non utf8 form", lambda: non_utf8_form()),
    ("http/multipart boundary", lambda: multipart_bad()),
    ("http/querydict max fields", lambda: QueryDict("a=1&b=2&c=3", max_num_fields=1) if False else
     http_utils.parse_qsl("a=1&b=2", max_num_fields=1)),
]


def dated_view(what):
    from django.test import RequestFactory
    from django.views.generic import dates
    request = RequestFactory().get("/")
    views = {
        "year": dates.YearArchiveView, "month": dates.MonthArchiveView, "day": dates.DayArchiveView,
        "week": dates.WeekArchiveView,
    }
    if what == "date_field":
        return dates.ArchiveIndexView.as_view(model=User)(request)
    return views[what].as_view(model=User, date_field="date_joined")(request)


def detail_view():
    from django.test import RequestFactory
    from django.views.generic import DetailView
    return DetailView.as_view(model=User)(RequestFactory().get("/"))


def template_name_view():
    from django.test import RequestFactory
    from django.views.generic import TemplateView
    return TemplateView.as_view()(RequestFactory().get("/")).render()


def list_view_empty():
    from django.test import RequestFactory
    from django.views.generic import ListView
    return ListView.as_view(model=User, allow_empty=False, queryset=User.objects.none())(RequestFactory().get("/"))


def upload_handlers_after_post():
    from django.test import RequestFactory
    request = RequestFactory().post("/post/", {"a": "1"})
    request.POST
    request.upload_handlers = []


def body_too_big():
    from django.test import RequestFactory, override_settings
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=4):
        RequestFactory().post("/post/", data="x" * 100, content_type="text/plain").body


def non_utf8_form():
    from django.test import RequestFactory
    request = RequestFactory().post("/post/", data="a=%E9", content_type="application/x-www-form-urlencoded; charset=latin-1")
    request.POST


def multipart_bad():
    from django.test import RequestFactory
    request = RequestFactory().post("/post/", data="--x\r\n", content_type="multipart/form-data")
    request.POST


for name, fn in rest:
    run(name, fn)

# ---------------------------------------------------------------- output

out = GOLDEN_OUT
for golden in GOLDEN:
    out.write(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n")
with_record = sum(1 for g in GOLDEN if g["expected"])
print(
    f"django {django.__version__}: {SUMMARY['cases']} cases, {len(GOLDEN)} messages, {with_record} raised where "
    f"a corpus record is ({len({i for g in GOLDEN for i in g['expected']})} records); "
    f"{SUMMARY['machine-specific']} left out as machine-specific; "
    f"{len(SUMMARY['no error'])} cases raised nothing: {SUMMARY['no error']}",
    file=sys.stderr,
)
connection.close()
