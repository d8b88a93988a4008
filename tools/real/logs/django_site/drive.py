"""Requests to the site through Django's test client, as a browser or a
script would send them:

    python drive.py METHOD PATH [HOST] [csrf|fields]

Django's handlers log what fails (the `django.request` and
`django.security.*` loggers) to the console with its default LOGGING;
`raise_request_exception=False` keeps the exceptions to the handlers, as a
server does."""
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_conf.settings")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

setup_test_environment()
method, url = sys.argv[1], sys.argv[2]
host = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else "testserver"
flavour = sys.argv[4] if len(sys.argv) > 4 else ""
client = Client(enforce_csrf_checks=flavour.startswith("csrf"), raise_request_exception=False, HTTP_HOST=host)
if flavour == "csrf-cookie":
    client.cookies["csrftoken"] = "A" * 32
data = {f"f{i}": "x" for i in range(1001)} if flavour == "fields" else {"name": "x"}
response = client.post(url, data) if method == "POST" else client.get(url)
print(f"{method} {url} -> {response.status_code}")
