"""Classify log lines against a catalog of documented error messages.

The engine is the Rust one behind ``errcat`` (the records compiled into
typed templates, a literal prefilter over whole buffers, most records matched
without a regex), so a line gets the same match here as from
``errcat scan --json``::

    from error_catalog import Catalog

    catalog = Catalog.embedded()                     # errcat's default: every embedded dataset
    m = catalog.find('[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist '
                     'session "s1" (seq=3): nats: timeout')
    m.name, m.fields        # ('UnableToPersistSession', {'ps_id': 's1', ...})
    catalog.classify(lines)  # a pyarrow StructArray, one row per line

``error_catalog.spark.classify(df, "line")`` does the same on a Spark
DataFrame.
"""

from ._native import (
    Catalog,
    CatalogError,
    CatalogLoadError,
    CatalogWarning,
    Diagnostic,
    Entry,
    Match,
    datasets,
    version,
)

__version__ = version()

__all__ = [
    "Catalog",
    "CatalogError",
    "CatalogLoadError",
    "CatalogWarning",
    "Diagnostic",
    "Entry",
    "Match",
    "__version__",
    "datasets",
]
