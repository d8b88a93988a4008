// Node raising its own errors through its real API.
//
//     node tools/real/node_errors.js > tools/real/golden/nodejs-node.jsonl
//
// Each case calls a Node API wrongly, as an application would; what Node
// throws, rejects with, passes to a callback, emits as 'error' or as a
// process warning is one golden line. The truth of each is where Node made
// it: its `code` (ERR_*), looked up in the corpus records by `errorCode`
// (tools/real/generate.sh passes the records' codes and locations in), or,
// for an error without a code, the innermost `node:` frame of its stack
// (`node:internal/event_target:566`), looked up by the records' `filePath`
// and lines. Values are given only where the case knows what it passed.
'use strict';

const fs = require('fs');
const util = require('util');

const [corpusIndex] = process.argv.slice(2);
// id, errorCode, filePath, sourceCodeStart, sourceCodeEnd per record.
const records = JSON.parse(fs.readFileSync(corpusIndex, 'utf8'));

function expectedFor(err) {
  const code = err && err.code;
  if (typeof code === 'string') {
    const byCode = records.filter((r) => r.errorCode === code).map((r) => r.id);
    if (byCode.length > 0) return { expected: byCode.sort(), where: code };
  }
  const where = innermostNodeFrame(err && err.stack);
  if (where === null) return { expected: [], where: typeof code === 'string' ? code : null };
  const expected = records
    .filter((r) => r.filePath === where.file && r.sourceCodeStart <= where.line && where.line <= r.sourceCodeEnd)
    .map((r) => r.id).sort();
  return { expected, where: `${where.file}:${where.line}` };
}

// Where errors are built, not raised: the frame below is the raise site.
const CONSTRUCTORS = new Set(['internal/errors', 'internal/per_context/domexception']);

function innermostNodeFrame(stack) {
  if (typeof stack !== 'string') return null;
  for (const frame of stack.split('\n').slice(1)) {
    const m = /\(?node:([\w/]+):(\d+):\d+\)?$/.exec(frame.trim());
    if (m && !CONSTRUCTORS.has(m[1])) return { file: `lib/${m[1]}.js`, line: Number(m[2]) };
  }
  return null;
}

const golden = [];
const quiet = [];
const PREFIX = '2026-12-01T10:00:00.000Z ERROR ';

function add(name, err, values) {
  const text = err.message;
  const head = util.inspect(err).split('\n    at ')[0];
  const { expected, where } = expectedFor(err);
  golden.push({
    program: 'nodejs-node', case: name, kind: err.name === 'Warning' || err instanceof Error ? 'error' : 'other',
    class: err.name, code: typeof err.code === 'string' ? err.code : null, text,
    line: head.includes('\n') ? null : PREFIX + head, where, expected, values: values || null,
  });
}

// No case provokes an error that Node's C++ layer throws with a code of
// lib/internal/errors.js and a message of its own (a second `final()` of a
// cipher: ERR_CRYPTO_INVALID_STATE "Invalid state"): its code would name a
// record that did not write it.
//
// A case: a function that throws, returns a promise that rejects, or calls
// `fail(err)` (callbacks, 'error' events, warnings) within a short while.
const cases = [];
function kase(name, fn, values) { cases.push({ name, fn, values }); }

const crypto = require('crypto');
const stream = require('stream');
const dgram = require('dgram');
const net = require('net');
const http = require('http');
const http2 = require('http2');
const tls = require('tls');
const zlib = require('zlib');
const dns = require('dns');
const readline = require('readline');
const inspector = require('inspector');
const asyncHooks = require('async_hooks');
const vm = require('vm');
const perf = require('perf_hooks');
const { Console } = require('console');

kase('buffer unknown encoding', () => Buffer.from('x', 'nosuch'), ['nosuch']);
kase('buffer swap16 odd', () => Buffer.from('abc').swap16(), ['16-bits']);
kase('buffer swap32 odd', () => Buffer.from('abc').swap32(), ['32-bits']);
kase('buffer write encoding', () => Buffer.alloc(4).write('x', 0, 1, 'nosuch2'), ['nosuch2']);
kase('text decoder encoding', () => new TextDecoder('nosuch-enc'), ['nosuch-enc']);
kase('kill unknown signal', () => process.kill(process.pid, 'SIGNOPE'), ['SIGNOPE']);
kase('builtin module', () => require('node:nosuchbuiltin'), ['node:nosuchbuiltin']);
kase('hash digest twice', () => { const h = crypto.createHash('sha256'); h.digest(); h.digest(); });
kase('hash update after digest', () => { const h = crypto.createHash('sha256'); h.digest(); h.update('x'); });
kase('hmac digest twice', () => { const h = crypto.createHmac('sha256', 'k'); h.digest(); h.update('x'); });
kase('ecdh format', () => crypto.createECDH('prime256v1').generateKeys('hex', 'weird'), ['weird']);
kase('ecdh public key', () => { const e = crypto.createECDH('prime256v1'); e.generateKeys(); e.computeSecret(Buffer.alloc(3)); });
kase('pbkdf2 digest', () => crypto.pbkdf2Sync('a', 'b', 1, 32, 'nosuchdigest'), ['nosuchdigest']);
kase('hkdf digest', () => crypto.hkdfSync('nosuchdigest', 'a', 'b', 'c', 16), ['nosuchdigest']);
kase('engine', () => crypto.setEngine('nosuchengine'), ['nosuchengine']);
kase('jwk', () => crypto.createPrivateKey({ key: { kty: 'RSA' }, format: 'jwk' }));
kase('jwk kty', () => crypto.createPublicKey({ key: { kty: 'nope' }, format: 'jwk' }));
kase('key object type', () => crypto.createPublicKey(crypto.createSecretKey(Buffer.alloc(16))), ['secret', 'private']);
kase('key encoding pkcs1 ec', () => crypto.generateKeyPairSync('ec', {
  namedCurve: 'P-256', publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
}));
kase('scrypt params', () => crypto.scryptSync('a', 'b', 16, { N: 3 }));
kase('sign without key', () => crypto.createSign('SHA256').update('x').sign(''));
kase('stream write null', () => new stream.Writable({ write(c, e, cb) { cb(); } }).write(null));
kase('stream write after end', (fail) => {
  const w = new stream.Writable({ write(c, e, cb) { cb(); } });
  w.on('error', fail); w.end(); w.write('x');
});
kase('stream push after eof', (fail) => {
  const r = new stream.Readable({ read() {} }); r.on('error', fail); r.push(null); r.push('x');
});
kase('stream unshift after end', (fail) => {
  const r = new stream.Readable({ read() {} }); r.on('error', fail);
  r.on('end', () => r.unshift('x')); r.push(null); r.resume();
});
kase('stream write destroyed', (fail) => {
  const w = new stream.Writable({ write(c, e, cb) { cb(); } }); w.destroy(); w.write('x', fail);
}, ['write']);
kase('stream end twice', (fail) => {
  const w = new stream.Writable({ write(c, e, cb) { cb(); } }); w.end(); w.end(fail);
}, ['end']);
kase('stream premature close', (fail) => {
  const r = new stream.Readable({ read() {} }); stream.finished(r, fail); r.destroy();
});
kase('stream read not implemented', (fail) => { const r = new stream.Readable(); r.on('error', fail); r.read(); }, ['_read()']);
kase('stream write not implemented', (fail) => { const w = new stream.Writable(); w.on('error', fail); w.write('x'); }, ['_write()']);
kase('stream transform not implemented', (fail) => { const t = new stream.Transform(); t.on('error', fail); t.write('x'); }, ['_transform()']);
kase('stream callback twice', (fail) => {
  const w = new stream.Writable({ write(c, e, cb) { cb(); cb(); } }); w.on('error', fail); w.write('x');
});
kase('stream pipe writable', () => new stream.Writable().pipe(new stream.Writable()));
kase('pipeline premature', (fail) => {
  const r = new stream.Readable({ read() {} });
  stream.pipeline(r, new stream.PassThrough(), fail); r.destroy();
});
kase('event recursion', () => {
  const target = new EventTarget(); const event = new Event('ping');
  target.addEventListener('ping', () => target.dispatchEvent(event)); target.dispatchEvent(event);
}, ['ping']);
kase('event target leak warning', (fail) => {
  process.once('warning', fail);
  const target = new EventTarget();
  events().setMaxListeners(1, target);
  target.addEventListener('tick', () => {}); target.addEventListener('tick', () => {});
});
kase('add listener null warning', (fail) => {
  process.once('warning', fail); new EventTarget().addEventListener('tick', null);
});
kase('abort signal', () => { const c = new AbortController(); c.abort(); c.signal.throwIfAborted(); });
kase('abort signal timeout', () => new Promise((resolve, reject) => {
  const s = AbortSignal.timeout(1); s.addEventListener('abort', () => reject(s.reason));
}));
kase('illegal constructor', () => new AbortSignal());
kase('dgram bad type', () => dgram.createSocket('udp5'));
kase('dgram close twice', () => { const s = dgram.createSocket('udp4'); s.close(); s.close(); });
kase('dgram not connected', () => { const s = dgram.createSocket('udp4'); try { s.remoteAddress(); } finally { s.close(); } });
kase('dgram disconnect', () => { const s = dgram.createSocket('udp4'); try { s.disconnect(); } finally { s.close(); } });
kase('dgram buffer size', () => { const s = dgram.createSocket('udp4'); try { s.setRecvBufferSize(1); } finally { s.close(); } });
kase('server listen twice', () => { const s = net.createServer(); s.listen(0); try { s.listen(0); } finally { s.close(); } });
kase('server close not running', (fail) => net.createServer().close(fail));
kase('socket closed write', (fail) => { const s = new net.Socket(); s.destroy(); s.write('x', fail); });
kase('http protocol', () => http.request({ protocol: 'ftp:', host: 'localhost' }), ['ftp:', 'http:']);
kase('http unescaped path', () => http.request({ host: 'localhost', path: '/a b' }), ['Request path']);
kase('http header token', () => http.validateHeaderName('bad header'), ['Header name', 'bad header']);
kase('http header value', () => http.validateHeaderValue('x-a', undefined), ['undefined', 'x-a']);
function response() {
  const req = new http.IncomingMessage(new net.Socket());
  req.method = 'GET';
  return new http.ServerResponse(req);
}
kase('http status code', () => response().writeHead(1000), ['1000']);
kase('http headers sent', () => { const res = response(); res.writeHead(200); res.setHeader('a', 'b'); }, ['set']);
kase('http remove headers sent', () => { const res = response(); res.writeHead(200); res.removeHeader('a'); }, ['remove']);
kase('http socket assigned', () => { const res = response(); res.assignSocket(new net.Socket()); res.assignSocket(new net.Socket()); });
kase('http2 packed settings', () => http2.getUnpackedSettings(Buffer.alloc(5)));
kase('tls protocol version', () => tls.createSecureContext({ minVersion: 'TLSv9' }), ['"TLSv9"', 'minimum']);
kase('tls protocol conflict', () => tls.createSecureContext({ minVersion: 'TLSv1.2', secureProtocol: 'TLSv1_2_method' }),
  ['"TLSv1.2"', '"TLSv1_2_method"']);
kase('tls server name', () => tls.createServer().addContext());
kase('tls alpn', () => tls.createServer({ ALPNCallback() {}, ALPNProtocols: ['h2'] }));
kase('tls secure context', () => tls.connect({ secureContext: {}, port: 1 }), ['context']);
kase('brotli param', () => zlib.createBrotliCompress({ params: { 9999: 1 } }), ['9999']);
kase('dns servers', () => dns.setServers(['not an ip!']), ['not an ip!']);
kase('readline closed', () => {
  const rl = readline.createInterface({ input: new stream.PassThrough() }); rl.close(); rl.question('x', () => {});
}, ['readline']);
kase('readline cursor', () => readline.cursorTo(new stream.PassThrough(), undefined, 1));
kase('inspector not connected', () => new inspector.Session().post('Runtime.enable'));
kase('inspector connected twice', () => { const s = new inspector.Session(); s.connect(); try { s.connect(); } finally { s.disconnect(); } });
kase('inspector not active', () => inspector.waitForDebugger());
kase('async resource type', () => new asyncHooks.AsyncResource(''));
kase('async resource id', () => new asyncHooks.AsyncResource('x', { triggerAsyncId: -2 }), ['triggerAsyncId', '-2']);
kase('async hook callback', () => asyncHooks.createHook({ init: 1 }), ['hook.init']);
kase('console stream', () => new Console({ stdout: 1 }), ['stdout']);
kase('console stderr stream', () => new Console({ stdout: process.stdout, stderr: 1 }), ['stderr']);
kase('capture callback twice', () => {
  process.setUncaughtExceptionCaptureCallback(() => {});
  try { process.setUncaughtExceptionCaptureCallback(() => {}); } finally { process.setUncaughtExceptionCaptureCallback(null); }
});
kase('parse args positional', () => util.parseArgs({ args: ['stray'], options: {} }), ['stray']);
kase('performance timestamp', () => perf.performance.mark('x', { startTime: -1 }), ['-1']);
kase('performance entry type', () => new perf.PerformanceObserver(() => {}).observe({ entryTypes: [] }));
kase('performance measure mark', () => perf.performance.measure('m', 'nosuchmark'));
kase('fs symlink type', () => fs.symlinkSync('a', 'b', 'weird'), ['weird']);
kase('fs file url host', () => fs.readFileSync(new URL('file://remotehost/x')), ['linux']);
kase('fs file url path', () => fs.readFileSync(new URL('file:///a%2Fb')), ['must not include encoded / characters']);
kase('fs dir closed', () => { const d = fs.opendirSync('.'); d.closeSync(); d.closeSync(); });
kase('fs cp options', () => fs.cpSync('a', 'b', { dereference: true, verbatimSymlinks: true }), ['dereference', 'verbatimSymlinks']);
kase('url search params this', () => Reflect.apply(URLSearchParams.prototype.get, {}, ['a']), ['URLSearchParams']);
kase('url search params tuple', () => new URLSearchParams([[1]]), ['Each query pair', '[name, value]']);
kase('url search params iterable', () => new URLSearchParams([1]), ['Each query pair']);
kase('web stream controller closed', () => new ReadableStream({ start(c) { c.close(); c.close(); } }));
kase('web stream locked transfer', () => { const rs = new ReadableStream(); rs.getReader(); structuredClone(rs, { transfer: [rs] }); });
kase('web writable locked transfer', () => { const ws = new WritableStream(); ws.getWriter(); structuredClone(ws, { transfer: [ws] }); });
kase('broadcast channel closed', () => { const b = new BroadcastChannel('x'); b.close(); b.postMessage('y'); });
kase('vm dynamic import', () => vm.runInNewContext('import("x")'));
kase('import attribute missing', () => import('data:application/json,{}'), ['data:application/json,{}', 'json']);
kase('import attribute wrong', () => import('data:text/javascript,1', { with: { type: 'json' } }),
  ['data:text/javascript,1', 'json']);
kase('import attribute unsupported type', () => import('data:text/javascript,1', { with: { type: 'css' } }), ['css']);
kase('import attribute unsupported key', () => import('data:text/javascript,1', { with: { nosuch: 'x' } }), ['nosuch', 'x']);
kase('import relative from data', () => import('data:text/javascript,import "./x.js"'));
kase('snapshot', () => require('v8').startupSnapshot.addSerializeCallback(() => {}));
kase('sea', () => require('node:sea').getAsset('x'));
kase('trace events', () => require('trace_events').createTracing({ categories: [] }));
kase('repl eval config', () => require('repl').start({ breakEvalOnSigint: true, eval() {}, input: new stream.PassThrough(), output: new stream.PassThrough() }));
kase('child ipc required', () => require('child_process').fork('x', { stdio: ['pipe', 'pipe', 'pipe'] }), ['stdio']);
kase('child ipc sync', () => require('child_process').spawnSync('true', { stdio: ['ipc'] }));
kase('child maxbuffer', (fail) => require('child_process').exec('yes | head -c 4096', { maxBuffer: 10 }, fail), ['stdout']);
kase('setuid unknown', () => process.setuid('nosuchuser-real'), ['User', 'nosuchuser-real']);
kase('setgid unknown', () => process.setgid('nosuchgroup-real'), ['Group', 'nosuchgroup-real']);
kase('worker env', () => new (require('worker_threads').Worker)('x', { eval: true, env: 1 }));
kase('diagnostics report', () => process.report.writeReport(1));
kase('domain after capture', () => {
  process.setUncaughtExceptionCaptureCallback(() => {});
  try { require('domain').create(); } finally { process.setUncaughtExceptionCaptureCallback(null); }
});

// Cases that need a live server (HTTP/1, HTTP/2), vm modules (the script
// runs with --experimental-vm-modules), workers and live handles.
const { Worker } = require('worker_threads');

function withHttpServer(onRequest, request) {
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      try { onRequest(req, res); } catch (err) { reject(err); } finally { setTimeout(() => { res.destroy(); server.close(); resolve(); }, 50); }
    });
    server.listen(0, '127.0.0.1', () => {
      const req = http.request({ port: server.address().port, host: '127.0.0.1', ...request }, (res) => res.resume());
      req.on('error', () => {});
      req.end();
    });
  });
}

function withHttp2Stream(onStream, headers = { ':path': '/' }) {
  return new Promise((resolve, reject) => {
    const server = http2.createServer();
    server.on('stream', (stream) => {
      stream.on('error', () => {});
      try { onStream(stream); } catch (err) { reject(err); }
    });
    server.listen(0, '127.0.0.1', () => {
      const client = http2.connect(`http://127.0.0.1:${server.address().port}`);
      client.on('error', () => {});
      const req = client.request(headers);
      req.on('error', () => {});
      req.on('response', () => {});
      setTimeout(() => { client.destroy(); server.close(); resolve(); }, 150);
    });
  });
}

function withHttp2Client(use) {
  return new Promise((resolve, reject) => {
    const server = http2.createServer();
    server.on('stream', (stream) => stream.respond());
    server.listen(0, '127.0.0.1', () => {
      const client = http2.connect(`http://127.0.0.1:${server.address().port}`);
      client.on('error', () => {});
      client.on('connect', () => {
        try { use(client); } catch (err) { reject(err); } finally { client.destroy(); server.close(); resolve(); }
      });
    });
  });
}

kase('http socket encoding', () => withHttpServer((req) => req.socket.setEncoding('utf8'), {}));
kase('http trailers invalid', () => withHttpServer((req, res) => {
  res.setHeader('Content-Length', 2); res.addTrailers({ a: 'b' }); res.write('ab');
}, {}));
kase('http2 connect authority', () => withHttp2Client((c) => c.request({ ':method': 'CONNECT' })));
kase('http2 connect path', () => withHttp2Client((c) => c.request({ ':method': 'CONNECT', ':authority': 'x:1', ':path': '/' })));
kase('http2 connect scheme', () => withHttp2Client((c) => c.request({ ':method': 'CONNECT', ':authority': 'x:1', ':scheme': 'http' })));
kase('http2 pseudoheader', () => withHttp2Client((c) => c.request({ ':bogus': 'x' })), [':bogus']);
kase('http2 connection header', () => withHttp2Client((c) => c.request({ connection: 'keep-alive' })), ['connection']);
kase('http2 single value', () => withHttp2Client((c) => c.request({ ':path': ['/a', '/b'] })), [':path']);
kase('http2 ping length', () => withHttp2Client((c) => c.ping(Buffer.alloc(3), () => {})));
kase('http2 socket manipulation', () => withHttp2Client((c) => c.socket.pause()));
kase('http2 session destroyed', () => withHttp2Client((c) => { c.destroy(); c.request({ ':path': '/' }); }));
kase('http2 status 101', () => withHttp2Stream((s) => s.respond({ ':status': 101 })));
kase('http2 status invalid', () => withHttp2Stream((s) => s.respond({ ':status': 1000 })), ['1000']);
kase('http2 info status', () => withHttp2Stream((s) => s.additionalHeaders({ ':status': 200 })), ['200']);
kase('http2 headers sent', () => withHttp2Stream((s) => { s.respond(); s.respond(); }));
kase('http2 headers after respond', () => withHttp2Stream((s) => { s.respond(); s.additionalHeaders({ ':status': 100 }); }));
kase('http2 payload forbidden', (fail) => withHttp2Stream((s) => { s.on('error', fail); s.respond({ ':status': 204 }); s.write('x'); }),
  ['204']);
kase('http2 send file directory', (fail) => withHttp2Stream((s) => { s.on('error', fail); s.respondWithFile('/'); }));
kase('http2 send file seek', () => withHttp2Stream((s) => s.respondWithFD(0, {}, { offset: 1 })));
kase('http2 trailers not ready', () => withHttp2Stream((s) => { s.respond(); s.sendTrailers({ a: 'b' }); }));
kase('http2 altsvc origin', () => withHttp2Stream((s) => s.session.altsvc('h2=":8000"', 'not an origin')));
kase('http2 origin invalid', () => withHttp2Stream((s) => s.session.origin('not an origin')));
kase('http2 stream destroyed', () => withHttp2Stream((s) => { s.destroy(); s.respond(); }));
kase('http2 nested push', (fail) => withHttp2Stream((s) => s.pushStream({ ':path': '/p' }, (err, push) => {
  if (err) { fail(err); return; }
  try { push.pushStream({ ':path': '/q' }, () => {}); } catch (e) { fail(e); }
})));
kase('dgram bind twice', () => { const s = dgram.createSocket('udp4'); s.bind(0); try { s.bind(0); } finally { s.close(); } });
kase('dgram connect twice', (fail) => {
  const s = dgram.createSocket('udp4');
  s.connect(9, '127.0.0.1', () => { try { s.connect(9, '127.0.0.1'); } catch (e) { fail(e); } finally { s.close(); } });
});
kase('dgram buffer size option', () => dgram.createSocket({ type: 'udp4', recvBufferSize: -1 }));
kase('socket connect destroyed', () => { const s = new net.Socket(); s.destroy(); s.connect(9); });
kase('tls invalid state', () => new tls.TLSSocket(new net.Socket()).exportKeyingMaterial(8, 'x'));
kase('tls sni from server', () => new tls.TLSSocket(new net.Socket(), { isServer: true }).setServername('x'));
kase('crypto incompatible key', () => crypto.diffieHellman({
  privateKey: crypto.generateKeyPairSync('x25519').privateKey,
  publicKey: crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey,
}));
kase('crypto auth tag state', () => crypto.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).getAuthTag(),
  ['getAuthTag']);
kase('dir concurrent', () => { const d = fs.opendirSync('.'); d.read(() => {}); try { d.readSync(); } finally { setTimeout(() => d.close(() => {}), 10); } });
kase('inspector command', (fail) => {
  const s = new inspector.Session(); s.connect();
  s.post('Nosuch.method', (err) => { s.disconnect(); fail(err); });
});
kase('worker unsupported', (fail) => {
  const w = new Worker('process.chdir("/")', { eval: true }); w.on('error', fail);
}, ['process.chdir()']);
kase('worker not running', async () => {
  const w = new Worker('setTimeout(() => {}, 10)', { eval: true }); await w.terminate(); await w.getHeapSnapshot();
});
kase('url search params not iterable', () => new URLSearchParams({ [Symbol.iterator]: 1 }));
kase('vm module status', () => new vm.SourceTextModule('export default 1').evaluate());
kase('vm module linked twice', async () => {
  const m = new vm.SourceTextModule('export default 1'); await m.link(() => {}); await m.link(() => {});
});
kase('vm module not module', () => new vm.SourceTextModule('import x from "y"').link(() => ({})));
kase('vm module context', () => new vm.SourceTextModule('import x from "y"').link(
  () => new vm.SourceTextModule('export default 1', { context: vm.createContext() })));
kase('vm module cached data', async () => {
  const m = new vm.SourceTextModule('export default 1'); await m.link(() => {}); await m.evaluate(); m.createCachedData();
});
kase('vm module constructor', () => new vm.Module());

function events() { return require('events'); }

// An 'error' event nobody listens to is thrown from the event loop: it is
// the running case's error.
let currentFail = null;
process.on('uncaughtException', (err) => { if (currentFail) currentFail(err); });
process.on('unhandledRejection', (err) => { if (currentFail) currentFail(err); });

async function runCase({ name, fn, values }) {
  let settled = false;
  const got = await new Promise((resolve) => {
    const fail = (err) => { if (!settled && err) { settled = true; resolve(err); } };
    currentFail = fail;
    setTimeout(() => { if (!settled) { settled = true; resolve(null); } }, 300);
    try {
      const result = fn(fail);
      if (result && typeof result.then === 'function') result.then(() => {}, fail);
    } catch (err) {
      fail(err);
    }
  });
  if (got) add(name, got, values); else quiet.push(name);
}

(async () => {
  for (const c of cases) await runCase(c);
  for (const line of golden) process.stdout.write(JSON.stringify(line) + '\n');
  const withRecord = golden.filter((g) => g.expected.length > 0);
  process.stderr.write(`node ${process.version}: ${cases.length} cases, ${golden.length} errors, ${withRecord.length} ` +
    `with a corpus record (${new Set(withRecord.flatMap((g) => g.expected)).size} records); nothing from: ${quiet.join(', ')}\n`);
  process.exit(0);
})();
