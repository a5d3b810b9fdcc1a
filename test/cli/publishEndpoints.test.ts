/** Where each publish target is, from the environment as each vendor's own client reads it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { otlpHeaders, publishEndpoint } from '../../src/cli/publishEndpoints.ts';

test('servers from the environment, --url first', () => {
  assert.equal(publishEndpoint('phoenix', {}, undefined, false).url, 'http://localhost:6006/v1/span_annotations');
  assert.equal(
    publishEndpoint('phoenix', { PHOENIX_COLLECTOR_ENDPOINT: 'https://px.example/v1/traces' }, undefined, false).url,
    'https://px.example/v1/span_annotations',
  );
  assert.equal(
    publishEndpoint(
      'phoenix',
      { PHOENIX_ENDPOINT: 'https://a.example/', PHOENIX_COLLECTOR_ENDPOINT: 'https://b.example' },
      undefined,
      false,
    ).url,
    'https://a.example/v1/span_annotations',
  );
  assert.equal(
    publishEndpoint('langfuse', { LANGFUSE_HOST: 'https://lf.example' }, undefined, true).url,
    'https://lf.example/api/public/scores',
  );
  assert.equal(
    publishEndpoint('langfuse', { LANGFUSE_HOST: 'https://lf.example' }, 'http://127.0.0.1:3000/', true).url,
    'http://127.0.0.1:3000/api/public/scores',
  );
  assert.equal(publishEndpoint('otlp', {}, undefined, false).url, 'http://localhost:4318/v1/logs');
  assert.equal(
    publishEndpoint('otlp', { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example/' }, undefined, false).url,
    'https://c.example/v1/logs',
  );
  assert.equal(
    publishEndpoint(
      'otlp',
      { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'https://c.example/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://d.example' },
      undefined,
      false,
    ).url,
    'https://c.example/custom',
  );
});

test('OTLP headers: key=value pairs, values percent-decoded, each value and bearer token a secret', () => {
  assert.deepEqual(otlpHeaders('Authorization=Bearer%20abc, x-tenant = acme ,broken'), { authorization: 'Bearer abc', 'x-tenant': 'acme' });
  const e = publishEndpoint('otlp', { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20tok123' }, undefined, false);
  assert.deepEqual(e.secrets, ['Bearer tok123', 'tok123']);
});
