// Where Node made what a case's process writes, taken as it happens
// (loaded with `node -r`) and written to $REAL_LOGS_TRUTH, one JSON object
// a line, without changing what the process writes: an uncaught exception
// or unhandled rejection (uncaughtExceptionMonitor) and every process
// warning, each with its name, code, message, the text Node prints for it
// and its stack's innermost `node:` frame. What a script prints itself
// (console.error(err)) is told by the script: `REAL_LOGS_TRUTH_PRINTED`.
'use strict';

const fs = require('fs');
const util = require('util');

const out = process.env.REAL_LOGS_TRUTH;

function note(kind, err) {
  const isObject = err !== null && typeof err === 'object';
  fs.appendFileSync(out, JSON.stringify({
    kind,
    name: isObject ? err.name : null,
    code: isObject && typeof err.code === 'string' ? err.code : null,
    message: isObject ? String(err.message) : String(err),
    inspected: util.inspect(err),
    stack: isObject && typeof err.stack === 'string' ? err.stack : null,
  }) + '\n');
}

if (out) {
  process.on('uncaughtExceptionMonitor', (err) => note('uncaught', err));
  process.on('warning', (warning) => note('warning', warning));
  globalThis.REAL_LOGS_TRUTH_PRINTED = (err) => note('printed', err);
}
