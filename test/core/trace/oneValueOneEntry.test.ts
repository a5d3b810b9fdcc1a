/**
 * One hostile value costs its own entry, never the rest of the file (issue 30): each case sits between two good
 * records, read both ways (importText and the file index); every line is accounted for, as a record or an error
 * naming that line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importText } from '../../../src/core/trace/importText.ts';
import { guardedEntry } from '../../../src/core/trace/importers/entryGuard.ts';
import { readTraceItems } from '../../../src/io/trace/traceIndex.ts';

const GOOD = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

async function readBothWays(middle: string): Promise<Array<{ records: number[]; errors: string[] }>> {
  const text = [GOOD, middle, GOOD].join('\n') + '\n';
  const fromText = importText(text);
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-one-value-'));
  try {
    const file = join(dir, 'trace.jsonl');
    writeFileSync(file, text);
    const records: number[] = [];
    const errors: string[] = [];
    for await (const item of readTraceItems(file))
      if (item.kind === 'record') records.push(item.loaded.line);
      else errors.push(item.error.message);
    return [
      { records: fromText.records.map((r) => r.line), errors: fromText.errors.map((e) => e.message) },
      { records, errors },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a Responses created_at past what a Date holds keeps its record, without a date', async () => {
  const line = JSON.stringify({ object: 'response', id: 'r', output: [], created_at: 8.64e12 + 1 });
  for (const read of await readBothWays(line)) assert.deepEqual(read, { records: [1, 2, 3], errors: [] });
  const loaded = importText(line).records[0];
  assert.equal(loaded?.record.meta?.created_at, 8.64e12 + 1);
  assert.equal(loaded?.record.meta?.created, undefined);
  const fine = importText(JSON.stringify({ object: 'response', output: [], created_at: 1_700_000_000 })).records[0];
  assert.equal(fine?.record.meta?.created, '2023-11-14T22:13:20.000Z');
});

test('an OTLP span whose attributes nest 5,000 deep is an error of its own; the other spans and lines load', async () => {
  const deep = nested(5000, '{"arrayValue":{"values":[', ']}}', '{"stringValue":"x"}');
  const span = (value: string, id: string): string =>
    `{"spanId":"${id}","name":"chat","attributes":[{"key":"gen_ai.request.model","value":{"stringValue":"m"}},{"key":"deep","value":${value}}]}`;
  const line = `{"resourceSpans":[{"scopeSpans":[{"spans":[${span(deep, 'a')},${span('{"stringValue":"y"}', 'b')}]}]}]}`;
  for (const read of await readBothWays(line)) {
    assert.deepEqual(read.records, [1, 2, 3]);
    assert.equal(read.errors.length, 1);
    assert.match(
      read.errors[0] ?? '',
      /^line 2: OTLP export: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]: its attributes nest deeper than 256 levels$/,
    );
  }
});

test('a pretty-printed record followed by a stray "]" keeps the record; the "]" is an error on its own line', async () => {
  const pretty = JSON.stringify({ messages: [{ role: 'user', content: 'a ] } "]"' }] }, null, 2) + '\n]';
  for (const read of await readBothWays(pretty)) {
    assert.deepEqual(read.records, [1, 2, 11]); // the record spans lines 2–9
    assert.equal(read.errors.length, 1);
    assert.match(read.errors[0] ?? '', /^line 10: invalid JSON/);
  }
});

test('an importer that throws costs its entry only, with the reason', () => {
  const read = guardedEntry(7, () => {
    throw new RangeError('Invalid time value');
  });
  assert.deepEqual(read, { records: [], errors: [{ line: 7, message: 'line 7: could not be imported (RangeError: Invalid time value)' }] });
});
