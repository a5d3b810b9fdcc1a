/**
 * Text from a trace reaches the terminal escaped (issue 30: a line could be rewritten to show "✔" and hide an
 * error): analyze's readable output, the tokens table, --json (C1 and bidi as JSON escapes, the same values).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sink } from '../../textSink.ts';
import { analyzeCommand } from '../../../src/cli/analyzeCommand.ts';
import { tokensCommand } from '../../../src/cli/tokensCommand.ts';
import { escapedJson, terminalLine } from '../../../src/host/report/terminalText.ts';

const HOSTILE_ID = 'r1\r\u001b[2K  \u2714 #fine\u001b[8m';
const HOSTILE_NAME = 'get_\u202eweather\u0085';
/** Raw control, C1 and bidi characters a terminal would act on (newline ends lines; nothing else may appear). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

async function withTrace<T>(run: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-terminal-'));
  try {
    const path = join(dir, 'hostile.jsonl');
    const record = {
      toolscope: 1,
      id: HOSTILE_ID,
      meta: { format: 'hermes' },
      completion: { text: `<tool_call>\n{"name": ${JSON.stringify(HOSTILE_NAME)}, "arguments": {}}\n</tool_call>` },
    };
    await writeFile(path, `${JSON.stringify(record)}\n{"broken\u001b[2K\r\u2714 all good\n`);
    return await run(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('analyze: ids, names and quoted lines are escaped in the readable output', async () => {
  const text = await withTrace(async (path) => {
    const out = sink();
    await analyzeCommand([path], { guided: false }, out);
    return out.text();
  });
  assert.doesNotMatch(text, RAW);
  assert.ok(text.includes('#r1\\u000D\\u001B[2K  \u2714 #fine\\u001B[8m'), text);
  assert.ok(text.includes('get_\\u202Eweather\\u0085'), text);
  assert.match(text, /unreadable line 2: invalid JSON/);
});

test('analyze --json: C1 and bidi characters are JSON escapes; the values read back unchanged', async () => {
  const text = await withTrace(async (path) => {
    const out = sink();
    await analyzeCommand([path], { guided: false, json: true }, out);
    return out.text();
  });
  assert.doesNotMatch(text, RAW);
  const first = JSON.parse(text.split('\n')[0] as string) as { id: string; calls: Array<{ name: string }> };
  assert.equal(first.id, HOSTILE_ID);
  assert.equal(first.calls[0]?.name, HOSTILE_NAME);
  assert.equal(escapedJson({ a: '\u2028\u0085' }), '{"a":"\\u2028\\u0085"}');
});

test('tokens: the table escapes what it quotes', async () => {
  const text = await withTrace(async (path) => {
    const out = sink();
    await tokensCommand([path], {}, out);
    return out.text();
  });
  assert.doesNotMatch(text, RAW);
  assert.ok(text.includes('r1\\u000D\\u001B[2K'), text);
});

test("terminalLine keeps the program's own styling and escapes everything else", () => {
  assert.equal(terminalLine('\u001b[31m\u2716\u001b[39m x\u001b[8my\r'), '\u001b[31m\u2716\u001b[39m x\\u001B[8my\\u000D');
});
