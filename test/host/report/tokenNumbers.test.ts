/**
 * One token numbering for people (issue 41): the readable report, the CI excerpt and the trace editor say
 * `tokens 11–34` (1-based, both ends included) for a finding whose `--json` fields are `tokenStart: 10, tokenEnd: 34`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { HumanReport } from '../../../src/host/report/humanReport.ts';
import { terminalStyle } from '../../../src/host/report/terminalStyle.ts';
import { findingText } from '../../../src/host/ci/findingExcerpt.ts';
import { tokenSpanText } from '../../../src/shared/tokenNumbers.ts';

const SAMPLES = fileURLToPath(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));

test('the human report and the CI excerpt number tokens alike, from 1, both ends included', async () => {
  const loaded = (await loadAll(SAMPLES)).records.find((r) => r.record.id === 'leak-marker-in-content');
  assert.ok(loaded);
  const a = new Analyzer({}).analyze(loaded);
  const dropped = a.diagnostics.find((d) => d.code === 'TS014');
  assert.ok(dropped && dropped.tokenStart !== null && dropped.tokenEnd !== null);
  // The --json contract: 0-based, end exclusive.
  assert.equal(dropped.tokenStart, 10);
  assert.equal(dropped.tokenEnd, 34);
  const lines: string[] = [];
  new HumanReport((l) => lines.push(l), terminalStyle({ isTTY: false }), false).record(a);
  const report = lines.join('\n');
  assert.match(report, /TS014 dropped-call \(tokens 11–34\)/);
  assert.match(findingText(a, dropped), /^TS014 dropped-call \[error\] \(tokens 11–34\)/);
  assert.equal(tokenSpanText(10, 34), 'tokens 11–34');
  assert.equal(tokenSpanText(11, 12), 'token 12');
});
