/**
 * docs/trace-format.md and docs/trace-record.schema.json kept honest: every native record in the doc and in
 * the fixtures matches the schema, every `jsonl` example imports into the `json` block after it, and records
 * that break the format are rejected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { importText } from '../../../src/core/trace/importText.ts';
import { NATIVE_RECORDS } from './traceFixtures.ts';

const DOCS = resolve(import.meta.dirname, '../../../docs');
const schema: unknown = JSON.parse(readFileSync(resolve(DOCS, 'trace-record.schema.json'), 'utf8'));
const doc = readFileSync(resolve(DOCS, 'trace-format.md'), 'utf8');

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(typeof schema === 'object' && schema !== null ? schema : {});

function assertValid(record: unknown, label: string): void {
  assert.ok(validate(record), `${label}: ${ajv.errorsText(validate.errors)}`);
}

interface CodeBlock {
  lang: string;
  body: string;
  line: number;
}

function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) {
    blocks.push({ lang: m[1] ?? '', body: m[2] ?? '', line: markdown.slice(0, m.index).split('\n').length });
  }
  return blocks;
}

const isNative = (v: unknown): boolean => typeof v === 'object' && v !== null && 'toolscope' in v;
const blocks = codeBlocks(doc);

test('every native record in the doc matches the schema', () => {
  let checked = 0;
  for (const block of blocks.filter((b) => b.lang === 'json')) {
    const value: unknown = JSON.parse(block.body);
    for (const record of Array.isArray(value) ? value : [value]) {
      if (!isNative(record)) continue;
      assertValid(record, `trace-format.md block at line ${block.line}`);
      checked++;
    }
  }
  assert.ok(checked >= 8, `only ${checked} native records found in the doc`);
});

test('every jsonl example in the doc imports into the json block that follows it', () => {
  let pairs = 0;
  blocks.forEach((block, i) => {
    if (block.lang !== 'jsonl') return;
    const next = blocks[i + 1];
    assert.equal(next?.lang, 'json', `jsonl block at line ${block.line} must be followed by its json result`);
    const expected: unknown = JSON.parse(next?.body ?? 'null');
    const result = importText(block.body, `trace-format.md:${block.line}`);
    assert.deepEqual(result.errors, [], `block at line ${block.line}`);
    const records = result.records.map((r) => r.record);
    assert.deepEqual(records, Array.isArray(expected) ? expected : [expected], `block at line ${block.line}`);
    pairs++;
  });
  assert.ok(pairs >= 5, `only ${pairs} import examples`);
});

test("the fixtures' native records match the schema", () => {
  for (const record of NATIVE_RECORDS) assertValid(record, record.id);
});

test('records that break the format fail the schema', () => {
  const bad: Array<[string, unknown]> = [
    ['no id', { toolscope: 1 }],
    ['empty id', { toolscope: 1, id: '' }],
    ['wrong version', { toolscope: 2, id: 'x' }],
    ['numeric id', { toolscope: 1, id: 7 }],
    ['unknown top-level key', { toolscope: 1, id: 'x', competion: { text: '' } }],
    ['completion without text', { toolscope: 1, id: 'x', completion: { tokens: [] } }],
    ['token id not an integer', { toolscope: 1, id: 'x', completion: { text: 'a', tokens: [{ id: 1.5, text: 'a' }] } }],
    ['response a string', { toolscope: 1, id: 'x', response: 'ok' }],
    ['chunk without delta', { toolscope: 1, id: 'x', response: [{ choices: [{ index: 0 }] }] }],
    ['message without role', { toolscope: 1, id: 'x', request: { messages: [{ content: 'hi' }] } }],
    ['error not a string', { toolscope: 1, id: 'x', error: { code: 429 } }],
    ['meta.guided not a boolean', { toolscope: 1, id: 'x', meta: { guided: 'yes' } }],
  ];
  for (const [label, record] of bad) assert.equal(validate(record), false, label);
});
