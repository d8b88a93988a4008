// Small Node programs that fail as users' programs do, each run by the
// machine's node as a process of its own, its stderr kept as written.
//
//     node tools/real/logs/node_logs.js INDEX [--held-out] > tools/real/golden/logs/nodejs-node.jsonl
//
// INDEX: the dataset's records' id, errorCode, filePath and lines
// (tools/real/generate.sh writes it). The truth of each error and warning
// in a case's stderr is taken while it runs, by node_truth.js (`node -r`):
// its `code`, looked up among the records by `errorCode`, or without a
// record of its code, the innermost `node:` frame of its stack, looked up
// by the records' `filePath` and lines. System errors (ENOENT, ...) are
// made by libuv, not by a line of lib/, so they have a record only by code.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const [indexFile, ...flags] = process.argv.slice(2);
const heldOut = flags.includes('--held-out');
const records = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
const truthHook = path.join(__dirname, 'node_truth.js');

// (case, source of app.js). `print(err)` is console.error(err) that also
// tells the truth hook which error it printed.
const CASES = [
  ['read a missing file', `require('fs').readFileSync('config.json', 'utf8');`],
  ['open a missing file with a callback', `require('fs').readFile('data/users.csv', (err) => { if (err) { print(err); process.exitCode = 1; } });`],
  ['write into a read-only directory', `require('fs').writeFileSync('/sys/kernel/app.log', 'x');`],
  ['read a directory as a file', `require('fs').readFileSync('.');`],
  ['mkdir that exists', `require('fs').mkdirSync('locked');`],
  ['rmdir of a non-empty directory', `require('fs').rmdirSync('full');`],
  ['invalid URL', `new URL('/api/users');`],
  ['wrong argument type', `require('fs').readFileSync({ file: 'config.json' });`],
  ['path of the wrong type', `require('path').join('a', null);`],
  ['Buffer of a bad size', `Buffer.alloc(-5);`],
  ['Buffer offset out of range', `Buffer.alloc(4).writeUInt32BE(1, 8);`],
  ['unhandled rejection', `async function load() { throw new Error('database connection refused'); } load();`],
  ['unhandled rejection of a string', `Promise.reject('timeout while waiting for the queue');`],
  ['EADDRINUSE', `const net = require('net'); const a = net.createServer().listen(0, () => { net.createServer().listen(a.address().port); });`],
  ['missing module', `require('express');`],
  ['missing relative module', `require('./lib/helpers');`],
  ['JSON.parse of HTML', `JSON.parse('<html><body>502 Bad Gateway</body></html>');`],
  ['JSON.parse of an empty body', `JSON.parse('');`],
  ['MaxListenersExceededWarning', `const e = new (require('events'))(); for (let i = 0; i < 11; i++) e.on('job', () => {});`],
  ['DEP0005 Buffer()', `new Buffer(10);`],
  ['assert.strictEqual', `require('assert').strictEqual(1 + 1, 3);`],
  ['assert.deepStrictEqual', `require('assert').deepStrictEqual({ a: 1 }, { a: 2 });`],
  ['assert.ok', `require('assert').ok(false, 'the cache must be warm');`],
  ['child process that fails', `require('child_process').execSync('exit 3', { stdio: 'ignore' });`],
  ['spawn of a missing program', `require('child_process').spawn('no-such-tool').on('error', (err) => { print(err); process.exitCode = 1; });`],
  ['connection refused', `require('net').connect(1, '127.0.0.1').on('error', (err) => { print(err); process.exitCode = 1; });`],
  ['TypeError on undefined', `const user = undefined; console.log(user.name);`],
  ['ReferenceError', `console.log(totl);`],
  ['invalid header value', `const http = require('http'); const s = http.createServer((q, r) => { r.setHeader('X-Id', 'a\\nb'); }).listen(0, () => { http.get({ port: s.address().port }).on('error', () => {}); });`],
  ['write after end', `const { PassThrough } = require('stream'); const s = new PassThrough(); s.end(); s.write('x');`],
  ['crypto of an unknown hash', `require('crypto').createHash('sha257');`],
  ['setTimeout of a bad callback', `setTimeout('tick()', 10);`],
  ['ExperimentalWarning', `require('fs').globSync;` + ` process.emitWarning('fetch is an experimental feature', 'ExperimentalWarning');`],
];

// Held out: not to be tuned on (generated apart, into nodejs-node.held-out.jsonl).
const HELD_OUT = [
  ['held-out: unlink of a missing file', `require('fs').unlinkSync('old.log');`],
  ['held-out: URL with a bad port', `new URL('http://localhost:99999/');`],
  ['held-out: string of a bad encoding', `Buffer.from('abc', 'utf-9');`],
  ['held-out: rejection of an EACCES', `require('fs').promises.writeFile('/sys/kernel/app.log', 'x');`],
  ['held-out: DEP0026 util.print', `require('util').isArray([]); process.emitWarning('util.isArray is deprecated', 'DeprecationWarning', 'DEP0044');`],
];

function innermostNodeFrame(stack) {
  if (typeof stack !== 'string') return null;
  for (const frame of stack.split('\n').slice(1)) {
    if (!frame.trim().startsWith('at ')) continue;
    const m = /\(?node:([\w/]+):(\d+):\d+\)?$/.exec(frame.trim());
    // Where errors are built, not raised: the frame below is the raise site.
    if (m && m[1] !== 'internal/errors') return { file: `lib/${m[1]}.js`, line: Number(m[2]) };
    // A frame of the program's own (or JSON.parse's): Node did not raise it.
    if (!m) return null;
  }
  return null;
}

// The event's places for the benchmark (bench/real_logs.py finds a
// regenerated dataset's records there too): its code, its innermost frame.
function placesOf(entry) {
  const frame = innermostNodeFrame(entry.stack);
  return { code: entry.code, places: frame ? [{ file: frame.file, line: frame.line }] : [] };
}

function truthOf(entry) {
  if (entry.code) {
    const byCode = records.filter((r) => r.errorCode === entry.code).map((r) => r.id).sort();
    if (byCode.length > 0) return { where: entry.code, expected: byCode };
  }
  const frame = innermostNodeFrame(entry.stack);
  if (frame === null) return { where: entry.code || (entry.name ? `${entry.name} (no node: frame)` : null), expected: [] };
  const expected = records
    .filter((r) => r.filePath === frame.file && r.sourceCodeStart <= frame.line && frame.line <= r.sourceCodeEnd)
    .map((r) => r.id).sort();
  return { where: `${entry.code ? entry.code + ' at ' : ''}${frame.file}:${frame.line}`, expected };
}

// What differs between runs and machines: the case's directory, pids, ports.
function normalise(text, dir) {
  return text.split(dir).join('/srv/app')
    .replace(/\(node:\d+\)/g, '(node:4242)')
    .replace(/(port: |:::|127\.0\.0\.1:)\d{4,5}\b/g, '$13000')
    .replace(/pid: \d+/g, 'pid: 4242');
}

function findBlock(lines, block, taken) {
  const want = block.split('\n');
  for (let i = 0; i + want.length <= lines.length; i++) {
    let same = true;
    for (let j = 0; j < want.length && same; j++) same = lines[i + j] === want[j] && !taken.has(i + j);
    if (same) return i;
  }
  return -1;
}

function eventsOf(entries, stderr, dir) {
  const lines = stderr.replace(/\n$/, '').split('\n');
  const taken = new Set();
  const events = [];
  // Uncaught last: it takes the lines no other event took.
  const ordered = [...entries.filter((e) => e.kind !== 'uncaught'), ...entries.filter((e) => e.kind === 'uncaught')];
  for (const entry of ordered) {
    const { where, expected } = truthOf(entry);
    let block;
    let start;
    if (entry.kind === 'warning') {
      // `(node:PID) [CODE] Name: message`, as process.emitWarning prints it.
      block = `(node:4242) ${entry.code ? `[${entry.code}] ` : ''}${entry.name}: ${entry.message}`;
      start = findBlock(lines, normalise(block, dir), taken);
    } else {
      // The error as util.inspect shows it, or at least its first line;
      // an uncaught one is the last thing the process writes: from the
      // source line that threw (above it) to `Node.js v...` (below).
      const inspected = normalise(entry.inspected, dir);
      start = findBlock(lines, inspected, taken);
      if (start < 0) start = findBlock(lines, inspected.split('\n')[0], taken);
      let end = start < 0 ? start : start + inspected.split('\n').length;
      if (start >= 0 && entry.kind === 'uncaught') {
        while (start > 0 && !taken.has(start - 1)) start--;
        end = lines.length;
        while (end > start && (lines[end - 1] === '' || lines[end - 1].startsWith('Node.js v'))) end--;
      }
      block = lines.slice(start, end).join('\n');
    }
    if (start < 0) {
      process.stderr.write(`node: a ${entry.kind} not found in the output: ${entry.message.slice(0, 80)}\n`);
      continue;
    }
    const height = block.split('\n').length;
    for (let i = start; i < start + height; i++) taken.add(i);
    events.push({
      line: start + 1, lines: height, level: entry.kind === 'warning' ? 'warning' : 'error',
      text: lines.slice(start, start + height).join('\n'), where, expected, ...placesOf(entry), values: null,
    });
  }
  events.sort((a, b) => a.line - b.line);
  return events;
}

function runCase(name, source) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'real-node-'));
  try {
    fs.mkdirSync(path.join(dir, 'locked'));
    fs.mkdirSync(path.join(dir, 'full'));
    fs.writeFileSync(path.join(dir, 'full', 'a.txt'), 'a');
    fs.writeFileSync(path.join(dir, 'app.js'),
      `'use strict';\nconst print = (err) => { REAL_LOGS_TRUTH_PRINTED(err); console.error(err); };\n${source}\n`);
    const truthFile = path.join(dir, 'truth.jsonl');
    const done = spawnSync(process.execPath, ['-r', truthHook, 'app.js'], {
      cwd: dir, encoding: 'utf8', timeout: 20000,
      env: { PATH: process.env.PATH, REAL_LOGS_TRUTH: truthFile, NODE_NO_WARNINGS: '' },
    });
    const entries = fs.existsSync(truthFile)
      ? fs.readFileSync(truthFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    const log = normalise(done.stderr, dir);
    return { status: done.status, log, events: eventsOf(entries, log, dir) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const [name, source] of heldOut ? HELD_OUT : CASES) {
  const { status, log, events } = runCase(name, source);
  const golden = { program: 'nodejs-node', case: name, held_out: heldOut, command: 'node app.js', source, status, log, events };
  const sorted = Object.fromEntries(Object.keys(golden).sort().map((k) => [k, golden[k]]));
  process.stdout.write(JSON.stringify(sorted) + '\n');
  if (events.length === 0) process.stderr.write(`node: ${name}: no error or warning (status ${status})\n`);
}
