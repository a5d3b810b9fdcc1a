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
import { indexedRanges, readTraceRange, type TraceRange } from '../../../src/io/trace/traceRanges.ts';
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

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test('the ranges of a file read back as the whole file, at any range size and indexing step, whatever its line breaks', async () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    for (const [bom, tail] of [
      ['', eol],
      ['\uFEFF', ''],
    ]) {
      const path = await file(bom + mixedLines().join(eol) + tail);
      const size = (await stat(path)).size;
      const whole = await collect(readTraceItems(path));
      assert.ok(whole.some((i) => i.kind === 'error'));
      const index = await TraceIndex.open(path);
      const count = index.count;
      await index.close();
      // Indexed at once, or a few bytes at a time (steps that end inside lines, line breaks and entries).
      const cases = [1, 300, 2000, 10_000, 1e9]
        .map((target) => [target, 1e9])
        .concat([300, 2000].flatMap((t) => [997, 61, 5].map((step) => [t, step])));
      const cutsAtOnce = new Map<number, number[]>();
      for (const [target, step] of cases as [number, number][]) {
        const what = `eol ${JSON.stringify(eol)}, bom ${bom !== ''}, ranges of ${target} bytes, indexed ${step} at a time`;
        const ranges = await collect(indexedRanges(path, size, target, step));
        // The same cuts however the file was indexed.
        const cuts = ranges.map((r) => r.entries[0]?.index ?? -1);
        if (step === 1e9) cutsAtOnce.set(target, cuts);
        else assert.deepEqual(cuts, cutsAtOnce.get(target), what);
        const items: TraceItem[] = [];
        for (const range of ranges) items.push(...(await collect(readTraceRange(range))));
        assert.deepEqual(items, whole, what);
        // Every entry once, in order; the ranges' bytes add up to the file.
        assert.deepEqual(
          ranges.flatMap((r) => r.entries.map((e) => e.index)),
          Array.from({ length: count }, (_, i) => i),
          what,
        );
        assert.equal(
          ranges.reduce((n, r) => n + r.bytes, 0),
          size,
          what,
        );
        if (target === 1) assert.equal(ranges.length, count, 'an entry larger than the size is a range of its own');
        if (target === 1e9) assert.equal(ranges.length, 1);
      }
    }
  }
});

test('a cut never splits an entry: a multi-line record or an SSE block that would cross it starts the next range', async () => {
  const path = await file(mixedLines().join('\n') + '\n');
  const target = 700;
  const ranges: TraceRange[] = await collect(indexedRanges(path, (await stat(path)).size, target, 1000));
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
});

test('a file that shrank while it was indexed: the ranges end where it ends', async () => {
  const path = await file(mixedLines().join('\n') + '\n');
  const size = (await stat(path)).size;
  const ranges = indexedRanges(path, size, 500, 1000);
  const first = await ranges.next();
  assert.ok(!first.done);
  await truncate(path, 3000);
  const rest = await collect(ranges);
  const last = rest.at(-1)?.entries.at(-1);
  assert.ok(last && last.end <= 3000);
});

test('a range of a file that shrank since it was indexed gives line-numbered errors for what is gone, not an exception', async () => {
  const path = await file(mixedLines().join('\n') + '\n');
  const size = (await stat(path)).size;
  const [range] = await collect(indexedRanges(path, size, 1e9));
  assert.ok(range);
  const whole = await collect(readTraceItems(path));
  await truncate(path, Math.floor(size / 2));
  const items = await collect(readTraceRange(range));
  const gone = items.filter((i) => i.kind === 'error' && /^line \d+: could not be read: the file is shorter/.test(i.error.message));
  assert.ok(gone.length > 0);
  assert.deepEqual(items.slice(0, 3), whole.slice(0, 3), 'what is still there reads as before');
  assert.equal(items.at(-1), gone.at(-1));
});
