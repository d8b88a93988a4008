"""Python's own exception chains, written by the real interpreter and its
logging module: an exception raised while handling another, one raised
`from` another, each logged after a line that introduces it, a lone
exception, and an uncaught chain at the end (the interpreter's own
traceback on stderr). The time is fixed, so that every run writes the same."""

import logging
import sys

logging.Formatter.formatTime = lambda self, record, datefmt=None: "2026-12-03 10:00:00,123"
logging.basicConfig(format="%(levelname)s %(asctime)s %(module)s %(message)s", stream=sys.stderr, level=logging.INFO)
log = logging.getLogger("shop")


def parse_quantity(text):
    try:
        return {"one": 1}[text]
    except KeyError:
        return int(text)


def load_order(order_id):
    try:
        return parse_quantity("abc")
    except ValueError as err:
        raise LookupError(f"order {order_id} has no valid quantity") from err


log.info("starting")
try:
    parse_quantity("abc")
except ValueError:
    log.exception("Internal Server Error: /orders/7")
try:
    load_order(7)
except LookupError:
    log.error("Failed to load order 7", exc_info=True)
try:
    int("x")
except ValueError:
    log.warning("Retrying after an error", exc_info=True)
log.info("done")
sys.stderr.flush()
load_order(8)
