"""Classify a column of log lines of a Spark DataFrame with ``mapInArrow``.

::

    from error_catalog import Catalog
    from error_catalog.spark import classify

    logs = spark.read.text("s3://bucket/logs/*.log")          # a column "value"
    errors = classify(logs, "value", catalog=Catalog.load("records/"))
    errors.where("error IS NOT NULL").groupBy("error.name").count().show()

A catalog of the datasets embedded in the package (``Catalog.embedded()``,
the default) travels as the names of its datasets: each executor's Python
worker opens the compiled blob that is part of the package (mapped from the
installed library, its pages shared by the executor's workers), and nothing
is decoded. Any other catalog is compiled once, on the driver; its compiled
bytes (``Catalog.to_bytes()``) are broadcast once to the executors, and each
executor's Python worker process turns them into a catalog on its first
batch and keeps it for every later batch and task (Spark reuses its Python
workers): nothing is recompiled per batch. The Arrow record batches Spark
hands over (``spark.sql.execution.arrow.maxRecordsPerBatch`` rows, 10,000 by
default) are gathered into runs of ``batch_rows`` lines, each classified in
one call by the same engine as ``errcat scan``, without a Python object per
line; the batches given back are Spark's, each with its slice of the result.

The executors need the package installed: see the README (cluster
libraries, ``--py-files`` or ``spark.archives``).
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional

from ._native import Catalog

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow
    from pyspark.sql import DataFrame

__all__ = ["classify", "result_type"]

# The catalogs this process has made from broadcast bytes, by digest.
_CATALOGS: Dict[str, Catalog] = {}
# How many catalogs this process has decoded (for the tests: once each).
_DECODED: Dict[str, int] = {}


# The text columns of a match, after its span. Not those of an event of
# several lines (`start_row`, `end_row`, `intro`, `causes`): their rows
# would be places in a batch of Spark's, which has no order.
_TEXTS = ("fields", "args", "field_spans", "message_span", "envelope", "context", "dataset")
_FIELDS = ("id", "slug", "name", "severity", "span", *_TEXTS)


def result_type():
    """The Spark type of the column ``classify`` adds: a struct of ``id``,
    ``slug``, ``name``, ``severity`` (strings), ``span`` (the UTF-8 byte
    offsets of the message in the line, as ``errcat scan --json``'s),
    ``fields``, ``args``, ``field_spans``, ``message_span`` (JSON texts, as
    errcat writes them), ``envelope``, ``context`` (the trace of a
    multi-line event, or null) and ``dataset`` (the name of the record's
    dataset, or null): the columns of ``Catalog.classify`` but an event's
    rows, intro and causes (a DataFrame's rows have no order; the trace is
    in ``context``); null when nothing matched."""
    from pyspark.sql import types as T

    text = lambda name: T.StructField(name, T.StringType(), True)  # noqa: E731
    return T.StructType(
        [
            text("id"),
            text("slug"),
            text("name"),
            text("severity"),
            T.StructField("span", T.ArrayType(T.LongType(), True), True),
            *(text(name) for name in _TEXTS),
        ]
    )


# How many lines classify() takes at once, by default: Spark's default
# batches (10,000 rows) gathered tenfold.
BATCH_ROWS = 100_000


def _catalog(key: str, payload, embedded: Optional[List[str]]) -> Catalog:
    """This process's catalog for ``key``: the embedded datasets named, or
    decoded from the broadcast bytes on first use."""
    catalog = _CATALOGS.get(key)
    if catalog is None:
        if embedded is not None:
            catalog = Catalog.embedded(embedded)
        else:
            data = payload.value if hasattr(payload, "value") else payload
            catalog = Catalog.from_bytes(data)
            _DECODED[key] = _DECODED.get(key, 0) + 1
        _CATALOGS[key] = catalog
    return catalog


def _gathered(batches: Iterator["pyarrow.RecordBatch"], rows: int) -> Iterator[list]:
    """``batches`` in runs of at least ``rows`` rows (the last may be shorter)."""
    run, count = [], 0
    for batch in batches:
        run.append(batch)
        count += batch.num_rows
        if count >= rows:
            yield run
            run, count = [], 0
    if run:
        yield run


def _arrow_type(large: bool):
    import pyarrow as pa

    text = pa.large_string() if large else pa.string()
    return pa.struct(
        [
            ("id", text),
            ("slug", text),
            ("name", text),
            ("severity", text),
            ("span", pa.list_(pa.int64())),
            *((name, text) for name in _TEXTS),
        ]
    )


def classify(
    df: "DataFrame",
    column: str,
    catalog: Optional[Catalog] = None,
    *,
    output: str = "error",
    threads: int = 1,
    envelope: str = "auto",
    batch_rows: int = BATCH_ROWS,
) -> "DataFrame":
    """``df`` with a column ``output`` (default ``"error"``) holding the match
    of each line of the string (or binary) column ``column``: see
    ``result_type()``; the same as ``Catalog.classify`` and ``errcat scan
    --json`` give for that line.

    ``catalog``: the catalog to use (default: ``Catalog.embedded()``, every
    dataset embedded in the package, as errcat's default).
    ``threads``: threads per batch (default 1: Spark already runs one task
    per executor core).
    ``envelope``: how the lines are wrapped, as ``Catalog.classify`` takes it
    (``"auto"`` chooses per run of ``batch_rows`` lines, from its first
    lines; the pieces of a long Docker or CRI line are joined within a run).
    ``batch_rows``: how many lines (at least) each call of the engine takes:
    Spark's Arrow batches are gathered until they hold as many (a call
    costs a fixed part, the envelope's detection and the result's export,
    which small batches pay often).
    """
    from pyspark.sql import types as T

    if column not in df.columns:
        raise ValueError(f"no column {column!r} in the DataFrame (columns: {df.columns})")
    if output in df.columns:
        raise ValueError(f"the DataFrame already has a column {output!r}; choose another output=")
    kind = df.schema[column].dataType
    if not isinstance(kind, (T.StringType, T.BinaryType)):
        raise TypeError(f"column {column!r} is {kind.simpleString()}, not string or binary")
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if batch_rows < 1:
        raise ValueError("batch_rows must be at least 1")
    catalog = catalog if catalog is not None else Catalog.embedded()
    embedded = catalog._embedded_datasets()
    if embedded is not None:
        key, payload = "embedded:" + ",".join(embedded), None
    else:
        data = catalog.to_bytes()
        key = hashlib.sha256(data).hexdigest()
        try:
            payload = df.sparkSession.sparkContext.broadcast(data)
        except Exception:  # Spark Connect has no SparkContext: the bytes travel with the function.
            payload = data
    schema = T.StructType(df.schema.fields + [T.StructField(output, result_type(), True)])

    def run(batches: Iterator["pyarrow.RecordBatch"]) -> Iterator["pyarrow.RecordBatch"]:
        import pyarrow as pa

        engine = _catalog(key, payload, embedded)
        for run in _gathered(batches, batch_rows):
            at = run[0].schema.get_field_index(column)
            lines = run[0].column(at) if len(run) == 1 else pa.concat_arrays([batch.column(at) for batch in run])
            large = pa.types.is_large_string(lines.type) or pa.types.is_large_binary(lines.type)
            found = engine.classify(lines, threads=threads, envelope=envelope)
            wanted = _arrow_type(large)
            fields = [found.field(name) for name in _FIELDS]
            result = pa.StructArray.from_arrays(fields, names=list(_FIELDS), mask=found.is_null())
            if result.type != wanted:
                result = result.cast(wanted)
            start = 0
            for batch in run:
                yield pa.RecordBatch.from_arrays(
                    list(batch.columns) + [result.slice(start, batch.num_rows)],
                    names=list(batch.schema.names) + [output],
                )
                start += batch.num_rows

    return df.mapInArrow(run, schema)


def decoded_in_this_process() -> dict:
    """How many times this process decoded each catalog (by digest), for
    tests and diagnostics: 1 each when Spark reuses its Python workers."""
    return {"pid": os.getpid(), "decoded": dict(_DECODED)}
