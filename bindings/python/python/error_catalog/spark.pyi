from typing import Optional

from pyspark.sql import DataFrame
from pyspark.sql.types import StructType

from ._native import Catalog

def result_type() -> StructType: ...
def classify(
    df: DataFrame,
    column: str,
    catalog: Optional[Catalog] = None,
    *,
    output: str = "error",
    threads: int = 1,
    envelope: str = "auto",
    batch_rows: int = 100_000,
) -> DataFrame: ...
def decoded_in_this_process() -> dict: ...
