/** Batch evaluation over loopback against the embedded endpoint: K2VV line format, resume, summary. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../../textSink.ts';
import { existsSync } from 'node:fs';
import { evalRunCommand } from '../../../src/cli/evalRunCommand.ts';
import { loadK2vvResults } from '../../../src/host/eval/loadResults.ts';
import { summarize } from '../../../src/host/eval/k2vvMetrics.ts';
import { pythonJsonDumps } from '../../../src/host/eval/pythonJson.ts';

const samples = fileURLToPath(new URL('../../../samples/k2vv-requests.jsonl', import.meta.url));

test('eval run: K2VV result lines appended per sample, summary table, resume skips what is done', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-'));
  try {
    const opts = {
      engine: 'vllm' as const,
      apiKeyEnv: 'TOOLSCOPE_API_KEY',
      guided: 'off' as const,
      concurrency: 3,
      timeoutS: 30,
      outDir: dir,
      resume: false,
      hallucinate: 1,
      seed: 3,
    };
    const out = sink();
    assert.equal(await evalRunCommand(samples, opts, out), 0);
    const file = join(dir, 'results.guided-off.jsonl');
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 4);
    assert.deepEqual(lines.map((l) => l.data_index).sort(), [1, 2, 3, 4]);
    for (const l of lines) {
      for (const k of [
        'data_index',
        'request',
        'response',
        'status',
        'finish_reason',
        'tool_calls_valid',
        'last_run_at',
        'duration_ms',
        'hash',
        'toolscope_record',
      ])
        assert.ok(k in l, k);
      assert.match(String(l.hash), /^[0-9a-f]{32}$/);
    }
    // hallucinate 1: every answer is broken, so every tool call fails K2VV's schema check.
    const { results } = await loadK2vvResults(file);
    const s = summarize(results);
    assert.equal(s.finish_tool_calls, 4);
    assert.equal(s.schema_validation_error_count, 4);
    assert.match(out.text(), /finish_tool_calls\s+4\n/);
    assert.match(out.text(), /schema_validation_error_count\s+4\n/);
    assert.match(out.text(), /schema_accuracy\s+0\.00%\n/);

    // A crash after two results: resume runs only the other two.
    await writeFile(
      file,
      lines
        .slice(0, 2)
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n{"data_index": 3, "torn',
    );
    assert.equal(await evalRunCommand(samples, { ...opts, resume: true }, sink()), 0);
    const after = (await readFile(file, 'utf8')).trim().split('\n');
    const indices = after.flatMap((l) => {
      try {
        return [(JSON.parse(l) as { data_index: number }).data_index];
      } catch {
        return [];
      }
    });
    assert.deepEqual(indices.sort(), [1, 2, 3, 4], 'two kept, two redone, the torn line left unreadable and not counted');
    assert.equal(after.length, 5);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('pythonJsonDumps writes what Python json.dumps(sort_keys=True) writes', () => {
  assert.equal(
    pythonJsonDumps({ b: [1, 2.5, null, true], a: '北京 "x"', c: { z: {}, y: [] } }),
    '{"a": "\\u5317\\u4eac \\"x\\"", "b": [1, 2.5, null, true], "c": {"y": [], "z": {}}}',
  );
});

test('eval run against the embedded endpoint at --hallucinate 0.3: schema errors with guided off, none with guided on', async () => {
  const shared = fileURLToPath(new URL('../../../../shared/data/k2vv/samples-99.jsonl', import.meta.url));
  const input = existsSync(shared) ? shared : samples;
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-guided-'));
  try {
    const out = sink();
    const opts = {
      engine: 'vllm' as const,
      apiKeyEnv: 'TOOLSCOPE_API_KEY',
      guided: 'both' as const,
      concurrency: 5,
      timeoutS: 30,
      outDir: dir,
      resume: false,
      hallucinate: 0.3,
      seed: 0,
    };
    assert.equal(await evalRunCommand(input, opts, out), 0);
    const off = summarize((await loadK2vvResults(join(dir, 'results.guided-off.jsonl'))).results);
    const on = summarize((await loadK2vvResults(join(dir, 'results.guided-on.jsonl'))).results);
    assert.ok(off.schema_validation_error_count > 0, `guided off breaks schemas: ${JSON.stringify(off)}`);
    assert.equal(on.schema_validation_error_count, 0, JSON.stringify(on));
    assert.equal(on.failure_count, 0, 'every guided request answered');
    assert.equal(on.finish_tool_calls, off.finish_tool_calls, 'guided on keeps every call');
    assert.match(out.text(), /schema_validation_error_count\s+\d+\s+0\n/);
    assert.match(out.text(), /schema_accuracy\s+\d+\.\d\d%\s+100\.00%\n/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
