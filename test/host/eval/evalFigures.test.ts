/** Figures across runs (mean ± sd, min/max), pass bars, error classes, latency percentiles. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalReport, FIGURE_NAMES } from '../../../src/host/eval/evalFigures.ts';
import { checkPassBars, parsePassBars } from '../../../src/host/eval/passPolicy.ts';
import { figureStats, percentile } from '../../../src/host/eval/runStats.ts';
import type { K2vvResult } from '../../../src/host/eval/k2vvMetrics.ts';
import type { ChatRequest } from '../../../src/core/trace/record.ts';

const request: ChatRequest = {
  model: 'm',
  messages: [{ role: 'user', content: 'weather?' }],
  tools: [
    {
      type: 'function',
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ],
};

function result(dataIndex: number, run: number, name: string, args: string, timings?: unknown): K2vvResult {
  return {
    dataIndex,
    run,
    status: 'success',
    finishReason: 'tool_calls',
    record: {
      toolscope: 1,
      id: String(dataIndex),
      request,
      response: {
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name, arguments: args } }] },
          },
        ],
      },
      meta: { source: 'k2vv', ...(timings ? { timings } : {}) },
    },
  };
}

test('stats: sample standard deviation, min, max; percentiles interpolate', () => {
  const s = figureStats([0.5, 0.75, 1]);
  assert.equal(s?.mean, 0.75);
  assert.equal(s?.sd, 0.25);
  assert.deepEqual([s?.min, s?.max, s?.n], [0.5, 1, 3]);
  assert.equal(figureStats([null, null]), null);
  assert.equal(percentile([10, 20, 30, 40], 50), 25);
});

test('report: per run, across runs, error classes; the newest line of a sample and run wins', () => {
  const ok = '{"city":"Paris"}';
  const results = [
    result(1, 1, 'get_weather', ok),
    result(2, 1, 'get_weather', '{"city":'),
    result(1, 2, 'get_weather', ok),
    result(2, 2, 'get_weather_v2', ok),
    result(1, 3, 'get_weather', ok),
    result(2, 3, 'get_weather', '{"city": 3}'),
    // a rerun of sample 2 run 3 that succeeded: it replaces the line above
    result(2, 3, 'get_weather', ok),
  ];
  const report = evalReport(results);
  assert.deepEqual(
    report.runs.map((r) => r.figures.schema_accuracy),
    [0.5, 0.5, 1],
  );
  assert.deepEqual(
    report.runs.map((r) => [r.figures.invalid_json, r.figures.unknown_name, r.figures.schema_mismatch]),
    [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ],
  );
  const s = report.stats.schema_accuracy;
  assert.ok(s);
  assert.ok(Math.abs(s.mean - 2 / 3) < 1e-12);
  assert.ok(Math.abs(s.sd - Math.sqrt(1 / 12)) < 1e-12);
  assert.deepEqual([s.min, s.max], [0.5, 1]);
});

test('latency: TTFT and inter-token percentiles and tokens/s from stream timings', () => {
  const r = result(1, 1, 'get_weather', '{"city":"Paris"}', { ttftMs: 100, totalMs: 400, eventMs: [100, 200, 300, 400] });
  const run = evalReport([r]).runs[0];
  assert.equal(run?.latency?.ttftMs.p50, 100);
  assert.equal(run?.latency?.interTokenMs.p50, 100);
  assert.equal(run?.latency?.outputTokensPerS, 10);
  assert.equal(run?.figures.ttft_p50_ms, 100);
});

test('pass bars: fractions and percentages, aliases, unknown figures refused, missing figures fail', () => {
  const bars = parsePassBars('f1=0.8, schema=95%', FIGURE_NAMES);
  assert.deepEqual(
    bars.map((b) => [b.figure, b.min]),
    [
      ['f1', 0.8],
      ['schema_accuracy', 0.95],
    ],
  );
  assert.throws(() => parsePassBars('f2=1', FIGURE_NAMES), /unknown figure "f2"/);
  assert.throws(() => parsePassBars('schema', FIGURE_NAMES), /NAME=VALUE/);
  const checked = checkPassBars(bars, (f) => (f === 'schema_accuracy' ? 0.96 : null));
  assert.deepEqual(
    checked.map((c) => c.passed),
    [false, true],
  );
});
