/**
 * The pure mapping from a record's verdicts to each target's items: which ids each target takes, and that a record
 * without them is skipped (null) rather than given made-up ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { langfuseScores } from '../../../src/core/publish/langfuseScores.ts';
import { phoenixAnnotations } from '../../../src/core/publish/phoenixAnnotations.ts';
import { otlpLogRecords } from '../../../src/core/publish/otlpEvaluationEvents.ts';
import type { PublishRecord } from '../../../src/core/publish/verdicts.ts';

const record = (ids: Partial<PublishRecord>): PublishRecord => ({
  file: 't.jsonl',
  line: 1,
  recordId: 'r',
  traceId: null,
  spanId: null,
  observationId: null,
  responseId: null,
  verdicts: [{ kind: 'content-leak', code: 'TS001', severity: 'error', count: 2, explanation: 'a\nb' }],
  ...ids,
});

test('langfuse needs both the trace id and the observation id', () => {
  assert.equal(langfuseScores(record({ traceId: 't' })), null);
  assert.equal(langfuseScores(record({ observationId: 'o' })), null);
  const [score] = langfuseScores(record({ traceId: 't', observationId: 'o' }))!;
  assert.deepEqual(
    { id: score!.id, name: score!.name, value: score!.value, dataType: score!.dataType },
    { id: 'toolscope-o-content-leak', name: 'toolscope.content-leak', value: 'error', dataType: 'CATEGORICAL' },
  );
});

test('phoenix needs the span id only', () => {
  assert.equal(phoenixAnnotations(record({ traceId: 't', observationId: 'o' })), null);
  const [a] = phoenixAnnotations(record({ spanId: 's1' }))!;
  assert.deepEqual(a!.result, { label: 'error', score: 2, explanation: 'a\nb' });
});

test('otlp takes a span context only in OpenTelemetry hex, else the response id, else nothing', () => {
  const T = '4BF92F3577B34DA6A3CE929D0E0E4736';
  const S = '00F067AA0BA902B7';
  const [e] = otlpLogRecords(record({ traceId: T, spanId: S }), '1')!;
  assert.equal(e!.traceId, T.toLowerCase());
  assert.equal(e!.spanId, S.toLowerCase());
  // A Langfuse-style or all-zero id is no span context: not sent as one.
  assert.equal(otlpLogRecords(record({ traceId: 'trace-1', spanId: S }), '1'), null);
  assert.equal(otlpLogRecords(record({ traceId: '0'.repeat(32), spanId: S }), '1'), null);
  const [byResponse] = otlpLogRecords(record({ traceId: 'trace-1', responseId: 'chatcmpl-1' }), '1')!;
  assert.equal(byResponse!.traceId, undefined);
  assert.deepEqual(
    byResponse!.attributes.find((a) => a.key === 'gen_ai.response.id'),
    { key: 'gen_ai.response.id', value: { stringValue: 'chatcmpl-1' } },
  );
});
