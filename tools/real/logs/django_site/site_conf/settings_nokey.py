"""Settings whose SECRET_KEY was left empty."""
from .settings import *  # noqa: F401,F403

SECRET_KEY = ""
