"""The settings as some take them to production: DEBUG off and nothing of
`check --deploy`'s list done."""
from .settings import *  # noqa: F401,F403

DEBUG = False
ALLOWED_HOSTS = ["shop.example"]
SECRET_KEY = "short"
