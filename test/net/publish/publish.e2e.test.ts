/**
 * `toolscope publish` against loopback servers that validate every request against the vendors' request schemas
 * (publishServer.ts): what each target receives for a trace whose records have all, some or none of its ids, how
 * refused and failed batches are retried and reported, and `--dry-run`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishCommand, type PublishOptions } from '../../../src/cli/publishCommand.ts';
import { withTempDir } from '../capture/httpKit.ts';
import { OK_ANSWERS, startPublishServer, type Answer, type SeenRequest } from './publishServer.ts';
import { IDS, writePublishTrace } from './publishTrace.ts';
import { collect } from './textCollector.ts';

const LANGFUSE_ENV = { LANGFUSE_PUBLIC_KEY: 'pk-lf-test', LANGFUSE_SECRET_KEY: 'sk-lf-test' };

async function run(
  to: PublishOptions['to'],
  env: NodeJS.ProcessEnv,
  answer?: (n: number, req: SeenRequest) => Answer | null,
  extra: Partial<PublishOptions> = {},
) {
  const server = await startPublishServer(OK_ANSWERS[to], answer);
  try {
    return await withTempDir(async (dir) => {
      const trace = await writePublishTrace(dir);
      const out = collect();
      const err = collect();
      const result = await publishCommand(
        [trace],
        { to, url: server.url, guided: false, retries: 3, retryDelayScale: 0.001, env, ...extra },
        out.stream,
        err.stream,
      );
      return { ...result, out: out.text(), err: err.text(), requests: server.requests };
    });
  } finally {
    await server.close();
  }
}

function assertAllValid(requests: SeenRequest[]) {
  assert.ok(requests.length > 0, 'nothing was sent');
  for (const r of requests) {
    assert.equal(r.method, 'POST');
    assert.equal(r.invalid, null, `${r.path}: ${r.invalid}`);
  }
}

test('langfuse: one categorical score per finding kind on the observation, basic auth; records without an observation id skipped', async () => {
  const r = await run('langfuse', LANGFUSE_ENV);
  assertAllValid(r.requests);
  const scores = r.requests.map((q) => q.body as Record<string, unknown>);
  for (const q of r.requests) {
    assert.equal(q.path, '/api/public/scores');
    assert.equal(q.headers.authorization, `Basic ${Buffer.from('pk-lf-test:sk-lf-test').toString('base64')}`);
  }
  // Only the record with both ids is scored: content-leak and dropped-call, each once.
  const names = scores.map((s) => s.name).sort();
  assert.deepEqual(names, ['toolscope.content-leak', 'toolscope.dropped-call']);
  for (const s of scores) {
    assert.equal(s.traceId, IDS.traceId);
    assert.equal(s.observationId, IDS.observationId);
    assert.equal(s.dataType, 'CATEGORICAL');
    assert.equal(s.value, 'error');
    assert.match(String(s.comment), /\S/);
  }
  assert.equal(r.code, 0);
  assert.equal(r.summary.accepted, 2);
  assert.equal(r.summary.refused, 0);
  assert.equal(r.summary.clean, 1);
  assert.equal(r.summary.skippedRecords, 2);
  assert.match(r.out, /2 accepted, 0 refused/);
  assert.match(r.out, /skipped 2 records with findings .*observation id/);
});

test('phoenix: CODE span annotations on the span id, batched, bearer key; a record without a span id skipped', async () => {
  const r = await run('phoenix', { PHOENIX_API_KEY: 'px-test' });
  assertAllValid(r.requests);
  assert.equal(r.requests.length, 1, 'one batch');
  const [q] = r.requests;
  assert.equal(q!.path, '/v1/span_annotations');
  assert.equal(q!.headers.authorization, 'Bearer px-test');
  const data = (q!.body as { data: Array<Record<string, unknown>> }).data;
  assert.deepEqual(
    data.map((a) => `${String(a.span_id)} ${String(a.name)}`).sort(),
    [
      `${IDS.spanId} toolscope.content-leak`,
      `${IDS.spanId} toolscope.dropped-call`,
      `${IDS.spanOnly} toolscope.empty-content-delta`,
    ].sort(),
  );
  for (const a of data) {
    assert.equal(a.annotator_kind, 'CODE');
    assert.equal(a.identifier, 'toolscope');
  }
  assert.equal(r.summary.accepted, 3);
  assert.equal(r.summary.skippedRecords, 1);
  assert.equal(r.code, 0);
});

test('phoenix: --batch-size splits the annotations over requests', async () => {
  const r = await run('phoenix', {}, undefined, { batchSize: 2 });
  assertAllValid(r.requests);
  assert.deepEqual(
    r.requests.map((q) => (q.body as { data: unknown[] }).data.length),
    [2, 1],
  );
  assert.equal(r.requests[0]!.headers.authorization, undefined, 'no key, no header');
});

test('otlp: gen_ai.evaluation.result log records (semconv 1.41.0) parented to the span, or carrying the response id', async () => {
  const r = await run('otlp', { OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=otlp-test,x-tenant=acme%20labs' });
  assertAllValid(r.requests);
  const [q] = r.requests;
  assert.equal(q!.path, '/v1/logs');
  assert.equal(q!.headers['x-api-key'], 'otlp-test');
  assert.equal(q!.headers['x-tenant'], 'acme labs');
  type Attr = { key: string; value: Record<string, unknown> };
  const body = q!.body as {
    resourceLogs: Array<{
      scopeLogs: Array<{
        schemaUrl: string;
        logRecords: Array<{ eventName: string; traceId?: string; spanId?: string; attributes: Attr[] }>;
      }>;
    }>;
  };
  const scope = body.resourceLogs[0]!.scopeLogs[0]!;
  assert.equal(scope.schemaUrl, 'https://opentelemetry.io/schemas/1.41.0');
  const attr = (rec: { attributes: Attr[] }, key: string) => rec.attributes.find((a) => a.key === key)?.value;
  const events = scope.logRecords;
  assert.equal(events.length, 3);
  for (const e of events) {
    assert.equal(e.eventName, 'gen_ai.evaluation.result');
    // Required by the event's definition.
    assert.equal(typeof attr(e, 'gen_ai.evaluation.name')?.stringValue, 'string');
    assert.equal(typeof attr(e, 'gen_ai.evaluation.score.value')?.doubleValue, 'number');
  }
  const parented = events.filter((e) => e.spanId === IDS.spanId && e.traceId === IDS.traceId);
  assert.equal(parented.length, 2);
  // The span-only record has no trace id: no span context, its response id instead.
  const byResponse = events.filter((e) => e.spanId === undefined);
  assert.equal(byResponse.length, 1);
  assert.equal(attr(byResponse[0]!, 'gen_ai.response.id')?.stringValue, 'chatcmpl-1cbd3ac231b5975fcc8958f31b558028');
  assert.equal(r.summary.skippedRecords, 1);
  assert.equal(r.code, 0);
});

test('429 and 5xx are retried (Retry-After honoured) until accepted; the retries are reported', async () => {
  const answers: Answer[] = [
    { status: 429, headers: { 'retry-after': '7' }, body: 'slow down' },
    { status: 503, body: 'busy' },
  ];
  const r = await run('phoenix', {}, (n) => answers[n] ?? null);
  assertAllValid(r.requests);
  assert.equal(r.requests.length, 3);
  assert.equal(r.summary.accepted, 3);
  assert.equal(r.code, 0);
  // The server's 7 s, then K2VV's backoff for a second attempt: 4 s plus up to 25%.
  assert.match(r.err, /HTTP 429: slow down; retry 1 in 7\.0 s/);
  assert.match(r.err, /HTTP 503: busy; retry 2 in (4\.\d|5\.0) s/);
});

test('a refused batch is reported with the server words and not retried; exit 1', async () => {
  const r = await run('langfuse', LANGFUSE_ENV, (n) => (n === 0 ? { status: 404, body: 'observation not found' } : null));
  assert.equal(r.requests.length, 2, 'the 404 is not retried; the other score is still sent');
  assert.equal(r.summary.refused, 1);
  assert.equal(r.summary.accepted, 1);
  assert.equal(r.code, 1);
  assert.match(r.err, /batch 1: 1 of 1 refused: HTTP 404: observation not found/);
  assert.match(r.out, /1 accepted, 1 refused \(1 requests\)/);
});

test('a batch still failing when retries run out is refused; exit 1', async () => {
  const r = await run('otlp', {}, () => ({ status: 502, body: 'bad gateway' }), { retries: 2 });
  assert.equal(r.requests.length, 3, 'the first attempt and 2 retries');
  assert.equal(r.summary.refused, 3);
  assert.equal(r.code, 1);
  assert.match(r.err, /3 of 3 refused: HTTP 502: bad gateway \(after 3 attempts\)/);
});

test("otlp: the collector's partial_success counts as refused", async () => {
  const r = await run('otlp', {}, () => ({
    status: 200,
    body: JSON.stringify({ partialSuccess: { rejectedLogRecords: '1', errorMessage: 'too old' } }),
  }));
  assert.equal(r.summary.accepted, 2);
  assert.equal(r.summary.refused, 1);
  assert.equal(r.code, 1);
  assert.match(r.err, /1 refused: too old/);
});

test('--dry-run prints each request (valid against the schema), sends nothing, needs no key', async () => {
  for (const to of ['langfuse', 'phoenix', 'otlp'] as const) {
    const r = await run(to, {}, undefined, { dryRun: true });
    assert.equal(r.requests.length, 0, `${to}: nothing sent`);
    const printed = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; url: string; body: unknown });
    assert.ok(printed.length > 0);
    const { VALIDATORS } = await import('./publishServer.ts');
    for (const p of printed) {
      const path = new URL(p.url).pathname as keyof typeof VALIDATORS;
      assert.ok(VALIDATORS[path](p.body), `${to}: ${JSON.stringify(VALIDATORS[path].errors)}`);
    }
    assert.match(r.err, /would send/);
    assert.equal(r.code, 0);
  }
});

test('langfuse without its keys is an input error naming the variables', async () => {
  await assert.rejects(run('langfuse', { LANGFUSE_PUBLIC_KEY: 'pk-only' }), /LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY/);
});

test('the request schemas refuse what the vendors would: a numeric categorical score, an unknown annotator kind, base64 ids', async () => {
  const { VALIDATORS } = await import('./publishServer.ts');
  assert.equal(VALIDATORS['/api/public/scores']({ name: 'n', value: 1, dataType: 'CATEGORICAL' }), false);
  assert.equal(VALIDATORS['/api/public/scores']({ name: 'n', value: 'error', dataType: 'CATEGORICAL', traceID: 't' }), false);
  assert.equal(VALIDATORS['/v1/span_annotations']({ data: [{ name: 'n', annotator_kind: 'TOOL', span_id: 's' }] }), false);
  assert.equal(VALIDATORS['/v1/span_annotations']({ data: [{ name: 'n', annotator_kind: 'CODE' }] }), false);
  const logs = (rec: Record<string, unknown>) => ({ resourceLogs: [{ scopeLogs: [{ logRecords: [rec] }] }] });
  assert.equal(VALIDATORS['/v1/logs'](logs({ traceId: 'S/kvNXezTaajzpKdDg5HNg==' })), false);
  assert.equal(VALIDATORS['/v1/logs'](logs({ severityNumber: 'SEVERITY_NUMBER_ERROR' })), false);
  assert.equal(VALIDATORS['/v1/logs'](logs({ time_unix_nano: '1' })), false);
  assert.equal(VALIDATORS['/v1/logs'](logs({ timeUnixNano: '1', traceId: IDS.traceId, spanId: IDS.spanId })), true);
});

test('a server that cannot be reached: the first batch is retried, the rest are refused unsent; exit 1', async () => {
  const gone = await startPublishServer(OK_ANSWERS.phoenix);
  await gone.close();
  await withTempDir(async (dir) => {
    const trace = await writePublishTrace(dir);
    const out = collect();
    const err = collect();
    const r = await publishCommand(
      [trace],
      { to: 'phoenix', url: gone.url, guided: false, retries: 1, retryDelayScale: 0.001, batchSize: 1, env: {} },
      out.stream,
      err.stream,
    );
    assert.equal(r.code, 1);
    assert.equal(r.summary.refused, 3);
    assert.equal(r.summary.accepted, 0);
    assert.match(err.text(), /batch 1: 1 of 1 refused: cannot reach .*ECONNREFUSED \(after 2 attempts\)/);
    assert.match(err.text(), /batch 3: 1 refused: not sent, the server could not be reached/);
  });
});
