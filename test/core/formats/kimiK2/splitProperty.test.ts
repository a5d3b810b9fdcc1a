/**
 * The property the design rests on: however a completion is cut into deltas, the accumulated streaming output
 * equals the one-shot parse (content, reasoning, calls), and so do the structure notes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KimiK2Parser, parseKimiK2 } from '../../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import { accumulate } from '../../../../src/core/trace/deltaAccumulator.ts';
import type { ParserOptions, ParseResult } from '../../../../src/core/formats/toolCallFormat.ts';
import { mulberry32, randomCuts } from '../../../fixtures/randomCuts.ts';

function streamed(pieces: string[], options?: ParserOptions): { message: ReturnType<typeof accumulate>; result: ParseResult } {
  const p = new KimiK2Parser(options);
  const deltas = pieces.map((piece) => p.push(piece));
  deltas.push(p.finish());
  return { message: accumulate(deltas), result: p.result() };
}

function expected(text: string, options?: ParserOptions) {
  const r = parseKimiK2(text, options);
  return {
    message: {
      content: r.content,
      reasoning: r.reasoning,
      calls: r.calls.map((c) => ({ index: c.index, id: c.id || null, name: c.name || null, arguments: c.arguments })),
    },
    result: r,
  };
}

function check(text: string, pieces: string[], options: ParserOptions | undefined, label: string): void {
  const want = expected(text, options);
  const got = streamed(pieces, options);
  const gotCalls = got.message.calls.map(({ index, id, name, arguments: a }) => ({ index, id, name, arguments: a }));
  assert.deepEqual(
    { content: got.message.content, reasoning: got.message.reasoning, calls: gotCalls },
    want.message,
    `${label}: cut ${JSON.stringify(pieces.map((p) => p.length))}`,
  );
  assert.deepEqual(got.result, want.result, `${label}: parse result differs for cut ${JSON.stringify(pieces.map((p) => p.length))}`);
}

function checkAllCuts(text: string, options: ParserOptions | undefined, label: string): void {
  for (let cut = 0; cut <= text.length; cut++) check(text, [text.slice(0, cut), text.slice(cut)], options, label);
  check(text, [...text], options, `${label} (1 char per delta)`);
  const rnd = mulberry32(text.length * 7919 + 17);
  for (let round = 0; round < 40; round++) check(text, randomCuts(text, rnd, 1 + (round % 12)), options, label);
}

const shared = fileURLToPath(new URL('../../../../../shared/data/vllm-kimi/', import.meta.url));
test('split property on the recorded vLLM vectors in ../shared', (t) => {
  if (!existsSync(shared)) {
    t.skip('../shared not present: recorded vLLM vectors not checked');
    return;
  }
  let n = 0;
  for (const file of ['vectors-basic.json', 'vectors-vllm-tests.json', 'vectors-vllm-tests-genA-era.json']) {
    const vectors = JSON.parse(readFileSync(shared + file, 'utf8')) as Array<{
      name: string;
      text?: string;
      deltas?: Array<string | [string, number[]]>;
    }>;
    for (const v of vectors) {
      const text = v.text ?? (v.deltas ?? []).map((d) => (typeof d === 'string' ? d : d[0])).join('');
      checkAllCuts(text, undefined, `${file}:${v.name}`);
      if (v.deltas)
        check(
          text,
          v.deltas.map((d) => (typeof d === 'string' ? d : d[0])),
          undefined,
          `${file}:${v.name} recorded deltas`,
        );
      n++;
    }
  }
  assert.ok(n > 50, `expected the recorded vectors, found ${n}`);
});
