import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, ofKind, record, section } from './analyze.helpers.ts';

test('schema-violation: missing required, wrong enum, integer out of range, extra property — with paths', () => {
  const text = section(
    call('functions.get_weather:0', '{"unit": "kelvin", "country": "FR"}'),
    call('functions.search:1', '{"query": "x", "top_k": 50}'),
  );
  const d = ofKind(analyze(record({ completion: { text } })), 'schema-violation');
  const summary = d.map((x) => `${x.callIndex} ${x.path} ${x.severity}`).sort();
  assert.deepEqual(summary, ['0 $ error', '0 $ error', '0 $.unit error', '1 $.top_k error']);
  assert.ok(d.some((x) => /missing required property "city"/.test(x.message)));
  assert.ok(d.some((x) => /unexpected property "country"/.test(x.message)));
  assert.ok(d.some((x) => /must be one of \["celsius","fahrenheit"\]/.test(x.message)));
});

test('schema-violation: a format mismatch is a warning, valid arguments are clean', () => {
  const text = section(
    call('functions.send_email:0', '{"to": "not-an-address", "subject": "hi"}'),
    call('functions.send_email:1', '{"to": "a@example.com", "subject": "hi"}'),
  );
  const d = ofKind(analyze(record({ completion: { text } })), 'schema-violation');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.severity, 'warning');
  assert.equal(d[0]?.path, '$.to');
});

test('schema-violation: a schema that does not compile is reported, not thrown', () => {
  const r = record({ completion: { text: section(call('functions.bad:0', '{}')) } });
  r.request = {
    tools: [{ type: 'function', function: { name: 'bad', parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } } } }],
  };
  const d = ofKind(analyze(r), 'schema-violation');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /cannot be used \(ajv\): schema is invalid: .*type/);
});
