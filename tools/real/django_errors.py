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

# The query log's duration (`(%.3f) %s; args=%s; alias=%s`) from a clock
# that ticks a millisecond a call, so that the golden file is the same at
# every run; everything else is Django's own.
import django.db.backends.utils as db_utils  # noqa: E402


class _Clock:
    now = 0.0

    def monotonic(self):
        self.now += 0.0005
        return self.now


db_utils.time = _Clock()


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


def load_records():
    by_file = {}
    for name in sorted(os.listdir(CORPUS)):
        if name.endswith(".json"):
            with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
                r = json.load(f)["record"]
            by_file.setdefault(r["filePath"], []).append(r)
    return by_file


RECORDS = load_records()


def records_at(file, line):
    """The ids of the records whose call spans this line of this file."""
    return sorted(
        r["id"] for r in RECORDS.get(file, []) if r["sourceCodeStart"] <= line <= (r["sourceCodeEnd"] or r["lineNumber"])
    )


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


def add(case, kind, text, where, values=None, error_class=None, line=None):
    if machine_specific(text):
        SUMMARY["machine-specific"] += 1
        return
    expected = records_at(*where) if where else []
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
        add(case, "exception", text, where, values, name, log_line(logging.ERROR, "app", f"{name}: {text}"))


def add_log(case, record):
    text = record.getMessage()
    where = None
    if record.exc_info and record.exc_info[1] is not None and not isinstance(record.msg, str):
        where = innermost_django_frame(record.exc_info[2])
    if where is None:
        file = django_path(record.pathname)
        where = (file, record.lineno) if file else None
    values = percent_values(record.msg, record.args) if record.args else None
    formatted = LINE_FORMAT.format(record)
    stamp = LINE_FORMAT.formatTime(record)
    line = formatted.replace(stamp, "2026-12-01 10:00:00,000", 1).split("\n")[0]
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
run("urls/bad regex", lambda: re_path(r"(unclosed", view_ok).check())
run("urls/resolve", lambda: __import__("django.urls", fromlist=["resolve"]).resolve("/nowhere/"))

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
    run(f"orm/{name}", lambda fn=fn: list(fn()) if isinstance(fn(), models.QuerySet) else fn())


def query_log():
    User.objects.filter(username="alice").exists()
    Group.objects.count()
    list(User.objects.filter(email__endswith="@example.org").values_list("id", flat=True))


run("orm/query log", query_log)

# Settings and the app registry
run("settings/configure twice", lambda: settings.configure())
run("settings/unknown connection", lambda: __import__("django.db", fromlist=["connections"]).connections["nosuch"])
run("settings/unknown cache", lambda: __import__("django.core.cache", fromlist=["caches"]).caches["nosuch"])
run("settings/unknown storage", lambda: __import__("django.core.files.storage", fromlist=["storages"]).storages["nosuch"])
run("settings/unknown template engine",
    lambda: __import__("django.template", fromlist=["engines"]).engines["nosuch"])
run("settings/import_string not a path", lambda: __import__("django.utils.module_loading",
                                                            fromlist=["x"]).import_string("nosuch"))
run("settings/import_string no attribute", lambda: __import__("django.utils.module_loading",
                                                              fromlist=["x"]).import_string("os.nosuch"))
run("settings/app label", lambda: apps.get_app_config("nosuch"))
run("settings/model label", lambda: apps.get_model("nosuch"))
run("settings/model missing", lambda: apps.get_model("auth.Nosuch"))
run("settings/model app missing", lambda: apps.get_model("nosuch.Model"))
run("settings/model without app",
    lambda: type("Stray", (models.Model,), {"__module__": "strayapp.models"}))


def auth_user_model():
    from django.contrib.auth import get_user_model
    from django.test import override_settings
    with override_settings(AUTH_USER_MODEL="nosuch"):
        get_user_model()


def auth_user_model_missing():
    from django.contrib.auth import get_user_model
    from django.test import override_settings
    with override_settings(AUTH_USER_MODEL="auth.Nosuch"):
        get_user_model()


run("settings/AUTH_USER_MODEL form", auth_user_model)
run("settings/AUTH_USER_MODEL missing", auth_user_model_missing)


def password_validators():
    from django.contrib.auth.password_validation import get_password_validators
    get_password_validators([{"NAME": "nosuch.Validator"}])


run("settings/password validators", password_validators)
run("settings/hasher unknown", lambda: __import__("django.contrib.auth.hashers", fromlist=["x"]).get_hasher("nosuch"))
run("settings/password not str", lambda: __import__("django.contrib.auth.hashers", fromlist=["x"]).make_password(1))
run("settings/identify hasher", lambda: __import__("django.contrib.auth.hashers",
                                                   fromlist=["x"]).identify_hasher("notahash"))
run("settings/password validate", lambda: __import__("django.contrib.auth.password_validation",
                                                     fromlist=["x"]).validate_password("a"))

# Signing
run("signing/loads garbage", lambda: signing.loads("garbage"))
run("signing/loads bad signature", lambda: signing.loads("eyJhIjoxfQ:1abc:bad"))
run("signing/unsign no separator", lambda: signing.Signer().unsign("novalue"))
run("signing/unsign mismatch", lambda: signing.Signer().unsign("value:badsignature"))
run("signing/unsafe separator", lambda: signing.Signer(sep="a"))
run("signing/expired", lambda: signing.TimestampSigner().unsign(
    signing.TimestampSigner().sign("v").replace(":", ":", 1), max_age=-1))
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
    ("decimal digits", validators.DecimalValidator(3, 1), __import__("decimal").Decimal("123.45")),
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
    from django.contrib.sessions.backends.db import SessionStore
    SessionStore().decode("garbage")


run("signals/send_robust", signal_robust)
run("transaction/on_commit robust", on_commit_robust)
run("sessions/decode garbage", session_corrupted)
run("transaction/atomic nested", lambda: transaction.savepoint_rollback("nosuch"))
run("transaction/mark rollback", lambda: transaction.set_rollback(True))

# ---------------------------------------------------------------- output

out = sys.stdout
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
