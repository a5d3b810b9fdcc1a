/**
 * A file cut into ranges of whole entries (traceRanges.ts) reads back, range after range, as the whole file reads:
 * the same records and errors with the same line numbers, at any range size, with multi-line records and SSE blocks
 * kept whole across the cuts, LF / CRLF / CR, a BOM and an unfinished last line.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceIndex, readTraceItems } from '../../../src/io/trace/traceIndex.ts';
import { cutRanges, readTraceRange, type TraceRange } from '../../../src/io/trace/traceRanges.ts';
import type { TraceItem } from '../../../src/core/trace/importers/importResult.ts';
import { CHAT_COMPLETION, NATIVE_RECORDS, chunk } from '../../core/trace/traceFixtures.ts';

let dir = '';
let counter = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-ranges-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const native = (id: string): string => JSON.stringify({ toolscope: 1, id, completion: { text: `answer ${id}` } });
const data = (value: unknown): string => `data: ${JSON.stringify(value)}`;

/** Single-line records, pretty-printed ones (a dozen lines each), SSE blocks, blank lines and bad lines, repeated. */
function mixedLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) {
    lines.push(native(`a${i}`), native(`b${i}`));
    lines.push(...JSON.stringify({ ...(NATIVE_RECORDS[i % NATIVE_RECORDS.length] as object), id: `pretty${i}` }, null, 2).split('\n'));
    lines.push('');
    lines.push(data(chunk(`S${i}`, { content: 'x' })), '', data(chunk(`S${i}`, { content: 'y' }, 'stop')), 'data: [DONE]', '');
    if (i % 4 === 2) lines.push('{"toolscope": 1, "id": ');
    lines.push(JSON.stringify(CHAT_COMPLETION));
  }
  return lines;
}

async function file(content: string): Promise<string> {
  const path = join(dir, `t${counter++}.jsonl`);
  await writeFile(path, content);
  return path;
}

async function collect(items: AsyncIterable<TraceItem>): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test('the ranges of a file read back as the whole file, at any range size, whatever its line breaks', async () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    for (const [bom, tail] of [
      ['', eol],
      ['\uFEFF', ''],
    ]) {
      const path = await file(bom + mixedLines().join(eol) + tail);
      const whole = await collect(readTraceItems(path));
      assert.ok(whole.some((i) => i.kind === 'error'));
      const index = await TraceIndex.open(path);
      try {
        for (const target of [1, 300, 2000, 10_000, 1e9]) {
          const ranges = [...cutRanges(index, target)];
          const items: TraceItem[] = [];
          for (const range of ranges) items.push(...(await collect(readTraceRange(range))));
          assert.deepEqual(items, whole, `eol ${JSON.stringify(eol)}, bom ${bom !== ''}, ranges of ${target} bytes`);
          // Every entry once, in order; the ranges' bytes add up to the file.
          assert.deepEqual(
            ranges.flatMap((r) => r.entries.map((e) => e.index)),
            Array.from({ length: index.count }, (_, i) => i),
          );
          assert.equal(
            ranges.reduce((n, r) => n + r.bytes, 0),
            (await stat(path)).size,
          );
          if (target === 1) assert.equal(ranges.length, index.count, 'an entry larger than the size is a range of its own');
          if (target === 1e9) assert.equal(ranges.length, 1);
        }
      } finally {
        await index.close();
      }
    }
  }
});

test('a cut never splits an entry: a multi-line record or an SSE block that would cross it starts the next range', async () => {
  const path = await file(mixedLines().join('\n') + '\n');
  const index = await TraceIndex.open(path);
  try {
    const target = 700;
    const ranges: TraceRange[] = [...cutRanges(index, target)];
    assert.ok(ranges.length > 10);
    let pushedOver = 0;
    for (const [k, range] of ranges.entries()) {
      const first = range.entries[0];
      const last = range.entries.at(-1);
      assert.ok(first && last);
      // Within the size unless one entry alone is larger.
      if (range.entries.length > 1) assert.ok(last.end - first.start <= target);
      const previous = ranges[k - 1];
      if (previous && first.lastLine > first.line && (previous.entries[0]?.start ?? 0) + target > first.start) pushedOver++;
    }
    assert.ok(pushedOver > 0, 'some multi-line entry crossed a cut and was moved whole to the next range');
  } finally {
    await index.close();
  }
});

test('a range of a file that shrank since it was indexed gives line-numbered errors for what is gone, not an exception', async () => {
  const path = await file(mixedLines().join('\n') + '\n');
  const index = await TraceIndex.open(path);
  const [range] = [...cutRanges(index, 1e9)];
  await index.close();
  assert.ok(range);
  const whole = await collect(readTraceItems(path));
  await truncate(path, Math.floor((await stat(path)).size / 2));
  const items = await collect(readTraceRange(range));
  const gone = items.filter((i) => i.kind === 'error' && /^line \d+: could not be read: the file is shorter/.test(i.error.message));
  assert.ok(gone.length > 0);
  assert.deepEqual(items.slice(0, 3), whole.slice(0, 3), 'what is still there reads as before');
  assert.equal(items.at(-1), gone.at(-1));
});
