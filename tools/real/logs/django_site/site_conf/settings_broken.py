"""Settings that the check framework rejects or warns about: no
DEFAULT_AUTO_FIELD, a STATICFILES_DIRS entry that does not exist, an app
with a broken model, URLs with a leading slash."""
from .settings import *  # noqa: F401,F403

del DEFAULT_AUTO_FIELD  # noqa: F821
INSTALLED_APPS = INSTALLED_APPS + ["broken"]  # noqa: F405
STATICFILES_DIRS = [BASE_DIR / "assets"]  # noqa: F405
ROOT_URLCONF = "site_conf.urls_broken"
