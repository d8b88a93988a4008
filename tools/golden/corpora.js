// Renders jobs of tools/golden/corpora.py with Node itself: reads JSON
// lines {style, format, args} on standard input and writes {text} (or
// {error}) per job. `js-format` calls util.format(format, ...args) (args
// are [kind, value]: "text" a string, "num" a number); `js-template`
// evaluates a template literal made of the literal parts of `format`
// (JSON {literals, holes}) with the values between them.
'use strict';
const util = require('util');
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
const out = [];
const value = ([kind, v]) => (kind === 'num' ? Number(v) : String(v));
// Template literal source text for literal characters.
const cooked = (s) => s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
for (const line of lines) {
  if (!line) continue;
  const job = JSON.parse(line);
  try {
    if (job.style === 'js-format') {
      out.push({ text: util.format(job.format, ...job.args.map(value)) });
    } else {
      const shape = JSON.parse(job.format);
      let source = '`' + cooked(shape.literals[0]);
      shape.holes.forEach((field, i) => {
        source += '${__v[' + field + ']}' + cooked(shape.literals[i + 1]);
      });
      source += '`';
      out.push({ text: new Function('__v', 'return ' + source + ';')(job.args.map(value)) });
    }
  } catch (e) {
    out.push({ error: String(e) });
  }
}
process.stdout.write(out.map((o) => JSON.stringify(o)).join('\n') + (out.length ? '\n' : ''));
