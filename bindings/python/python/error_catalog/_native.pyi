"""Type stubs of the compiled module (the Rust engine behind errcat)."""

from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, overload

import pyarrow

Line = Union[str, bytes]

class CatalogError(Exception):
    """Something is wrong with a catalog (its records, or its compiled bytes)."""

class CatalogLoadError(CatalogError):
    """The records of a dataset could not be loaded."""

    diagnostics: List[Diagnostic]
    """Every problem, errors first, each with its record file, line, column and field."""

class CatalogWarning(UserWarning):
    """A loader warning about a record, or lines skipped by classify()."""

class Diagnostic:
    """One problem in a record file."""

    level: str
    """``"error"`` or ``"warning"``."""
    path: str
    """The record file, as named to the loader."""
    line: int
    """1-based line."""
    column: int
    """1-based column, in characters."""
    field: Optional[str]
    """The JSON field concerned (``"errorMessage"``, ...), or None."""
    message: str
    """What is wrong."""
    def __str__(self) -> str:
        """``file:line:column: field `name`: message``, as errcat prints it."""

class Entry:
    """One error of a catalog: its record's metadata and compiled message."""

    @property
    def id(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def name(self) -> str:
        """The variant name (``UnableToPersistSession``), as in the generated Rust enum."""
    @property
    def severity(self) -> str:
        """``"error"`` when the record does not say."""
    @property
    def message(self) -> str:
        """The format string as written in the source."""
    @property
    def message_pattern(self) -> Optional[str]: ...
    @property
    def documentation(self) -> str: ...
    @property
    def solutions(self) -> List[str]: ...
    @property
    def prevention_tips(self) -> List[str]: ...
    @property
    def handling_strategy(self) -> Optional[str]: ...
    @property
    def source_link(self) -> Optional[str]: ...
    @property
    def repo(self) -> str: ...
    @property
    def file_path(self) -> str: ...
    @property
    def line_number(self) -> Optional[int]: ...
    @property
    def tags(self) -> List[str]: ...
    @property
    def fields(self) -> List[Tuple[str, str]]:
        """``(name, type)`` in order; type is ``"int"``, ``"float"``, ``"bool"`` or ``"str"``."""
    @property
    def dataset(self) -> Optional[str]:
        """The name of the record's dataset (errcat's ``dataset``), or None."""
    @property
    def origin(self) -> Optional[Tuple[str, int, int]]:
        """The record file, line and column, or None for the embedded catalog."""
    def record(self) -> dict:
        """The whole record, with the dataset's camelCase field names."""

class Match:
    """A record found in a line or message."""

    @property
    def entry(self) -> Entry: ...
    @property
    def id(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def dataset(self) -> Optional[str]: ...
    @property
    def span(self) -> Tuple[int, int]:
        """The message's place in the line in str indices: ``line[start:end]``."""
    @property
    def byte_span(self) -> Tuple[int, int]:
        """The same in UTF-8 bytes (errcat's ``span``)."""
    @property
    def fields(self) -> dict[str, Union[int, float, bool, str, bytes]]:
        """The captured fields by name, typed."""
    @property
    def args(self) -> List[Union[int, float, bool, str, bytes]]:
        """The captured values in placeholder order (errcat's ``args``)."""
    def to_dict(self) -> dict[str, Any]:
        """id, slug, name, severity, dataset, span (bytes), fields, args: errcat's --json keys."""

class Catalog:
    """The compiled catalog of errors."""

    @staticmethod
    def load(
        dir: Union[str, PathLike[str]], *, cache: bool = True, cache_dir: Optional[Union[str, PathLike[str]]] = None
    ) -> Catalog:
        """Loads every record under ``dir``, with the compiled-catalog cache.
        Raises CatalogLoadError."""
    @staticmethod
    def default() -> Catalog:
        """The seed records (the dataset ``seeds``: ``errcat --dataset seeds``)."""
    @staticmethod
    def embedded(datasets: Union[None, str, Iterable[str]] = None) -> Catalog:
        """The datasets compiled into the package: all (errcat's default) or those named."""
    def to_bytes(self) -> bytes:
        """The compiled catalog as bytes, for ``from_bytes`` elsewhere."""
    @staticmethod
    def from_bytes(data: bytes) -> Catalog:
        """Raises CatalogError when the bytes are damaged or of another version."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Entry]: ...
    def __getitem__(self, key: Union[int, str]) -> Entry:
        """By index, or by id, slug or variant name."""
    def find(self, line: Line) -> Optional[Match]:
        """The best record for a message inside a log line, or None."""
    def parse(self, message: Line) -> Optional[Match]:
        """The best record for a whole message, or None."""
    def find_all(self, line: Line) -> List[Match]:
        """Every record that matches inside the line, best first."""
    @overload
    def classify(
        self,
        lines: Union[Sequence[Optional[Line]], pyarrow.Array],
        *,
        threads: Optional[int] = None,
        envelope: str = "auto",
    ) -> pyarrow.StructArray: ...
    @overload
    def classify(
        self, lines: pyarrow.ChunkedArray, *, threads: Optional[int] = None, envelope: str = "auto"
    ) -> pyarrow.ChunkedArray: ...
    def classify(self, lines: Any, *, threads: Optional[int] = None, envelope: str = "auto") -> Any:
        """One row per line: null, or id, slug, name, severity, span (bytes of
        the line), fields, args, field_spans, message_span (JSON), envelope,
        context (a trace, or null), dataset, and for an event of several
        lines start_row, end_row (its first and last rows), intro and causes
        (JSON, each part's ``row`` for errcat's ``line``), else null, as
        ``errcat scan --json``; the lines of a trace give null, their event's
        row carries them. All cores, GIL released.
        ``envelope``: auto, none, docker, cri, journald, syslog, logfmt, json
        or json:KEY, as ``errcat scan --envelope``."""

def datasets() -> List[Dict[str, Any]]:
    """The embedded datasets: name, records, project, version (``errcat datasets --json``)."""

def version() -> str: ...
