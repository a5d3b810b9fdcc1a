/**
 * A list worker's rows are the full analysis's, on every sample and fixture trace: each file, its records three times
 * over (an agent's trace repeats its tools: the list worker parses a repeated tool set once and the analysis hands
 * it over as one object, sharedToolSets.ts and toolSets.ts), listed as a list worker lists a range
 * (`runListWorker` over a MessageChannel, its what-ifs answered and applied) against a session on this thread that
 * reads every line whole (no sharing). Every row, its finding counts, kinds, severity and what-if verdict, must be the
 * same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { TraceSession } from '../../../src/host/view/traceSession.ts';
import { runListWorker } from '../../../src/host/view/listWorker.ts';
import type { ListWorkerAnswer } from '../../../src/host/view/listWorkerProtocol.ts';
import { indexedRanges, type TraceRange } from '../../../src/io/trace/traceRanges.ts';
import { shareRepeatedToolSets } from '../../../src/core/trace/importers/sharedToolSets.ts';
import type { LineErrorView, RecordSummary } from '../../../src/shared/protocol.ts';
import { withFile } from './withTraceFile.ts';

const ROOT = join(__dirname, '..', '..', '..');

/** The line traces among the samples and fixtures (an SSE capture and a server log are lines too). */
function traces(): string[] {
  const samples = readdirSync(join(ROOT, 'samples'))
    .filter((f) => /\.(jsonl|sse|log|ndjson)$/.test(f))
    .map((f) => join(ROOT, 'samples', f));
  const fixtures: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.jsonl')) fixtures.push(p);
    }
  };
  walk(join(ROOT, 'test', 'fixtures'));
  return [...samples, ...fixtures.sort()];
}

/** The rows and errors a session on this thread lists, every what-if answered. */
async function inThread(path: string): Promise<{ rows: RecordSummary[]; lineErrors: LineErrorView[] }> {
  shareRepeatedToolSets(false);
  const session = await TraceSession.open(path, 't.jsonl', {});
  try {
    while (await session.nextBatch(1000));
    while (await session.nextGuidedFindings());
    const { summaries, lineErrors } = session.snapshot();
    return { rows: summaries, lineErrors };
  } finally {
    await session.close();
  }
}

/** The rows and errors a list worker sends for the whole file as one range, its findings applied to its rows. */
async function onListWorker(path: string): Promise<{ rows: RecordSummary[]; lineErrors: LineErrorView[] }> {
  const { port1, port2 } = new MessageChannel();
  // (It shares repeated tool sets from here on, as a list worker thread does.)
  runListWorker(port2);
  const rows: RecordSummary[] = [];
  const at = new Map<string, number>();
  const lineErrors: LineErrorView[] = [];
  try {
    const ranges: TraceRange[] = [];
    for await (const range of indexedRanges(path, statSync(path).size, Number.MAX_SAFE_INTEGER)) ranges.push(range);
    assert.equal(ranges.length, 1);
    await new Promise<void>((resolve, reject) => {
      port1.on('message', (a: ListWorkerAnswer) => {
        if (a.type === 'batch') {
          for (const s of a.summaries) {
            at.set(s.key, rows.length);
            rows.push(s);
          }
          lineErrors.push(...a.lineErrors);
        }
        for (const f of a.type === 'batch' ? a.guided : a.type === 'guided' ? a.findings : []) {
          const i = at.get(f.key);
          if (i === undefined) reject(new Error(`findings for a row never sent: ${f.key}`));
          else rows[i] = f.summary;
        }
        if (a.type === 'done') {
          if (a.error) reject(new Error(a.error));
          else resolve();
        }
      });
      port1.postMessage({ type: 'range', id: 1, range: ranges[0], fileName: 't.jsonl', options: {}, inView: [] });
    });
    return { rows, lineErrors };
  } finally {
    port1.close();
    shareRepeatedToolSets(false);
  }
}

test('a list worker lists every sample and fixture trace, its tools repeated, as the full analysis does: row for row', async () => {
  let shared = 0;
  let rows = 0;
  for (const file of traces()) {
    const text = readFileSync(file, 'utf8');
    const body = text.endsWith('\n') ? text : `${text}\n`;
    await withFile(body + body + body, async (path) => {
      const expected = await inThread(path);
      const listed = await onListWorker(path);
      assert.ok(
        listed.rows.every((r) => !r.guidedPending),
        `${file}: every what-if answered`,
      );
      assert.deepEqual(listed, expected, file);
      rows += expected.rows.length;
      if (/"tools":\[/.test(text)) shared++;
    });
  }
  // The sharing was put to the test: traces whose requests carry tools.
  assert.ok(shared >= 5, `traces with tools: ${shared}`);
  assert.ok(rows >= 300, `rows: ${rows}`);
});
