"""Django 5.2.19's own log of failed requests: a view whose exception
chains to another, and one that fails on a missing key, each logged by
`django.request` (`Internal Server Error: …` and the traceback) in the
format of Django's documented `verbose` formatter; a 404 for contrast. The
time is fixed, so that every run writes the same."""

import logging
import sys

import django
from django.conf import settings
from django.http import HttpResponse
from django.urls import path

logging.Formatter.formatTime = lambda self, record, datefmt=None: "2026-12-03 10:00:00,123"


def order(request, number):
    try:
        return HttpResponse({"1": "one"}[str(number)])
    except KeyError as err:
        raise ValueError(f"no order {number}") from err


def stock(request):
    return HttpResponse(request.GET["item"])


urlpatterns = [path("orders/<int:number>", order), path("stock", stock)]

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["testserver"],
    ROOT_URLCONF=__name__,
    MIDDLEWARE=[],
    LOGGING={
        "version": 1,
        "formatters": {"verbose": {"format": "{levelname} {asctime} {module} {message}", "style": "{"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": sys.stderr, "formatter": "verbose"}},
        "loggers": {"django": {"handlers": ["stderr"], "level": "WARNING"}},
    },
)
django.setup()

from django.test import Client  # noqa: E402

client = Client(raise_request_exception=False)
client.get("/orders/7")
client.get("/stock")
client.get("/missing")
