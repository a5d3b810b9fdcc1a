import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact, redactString, REDACTED } from '../../src/core/util/redact.ts';

// Made-up keys in each provider's shape (prefix and length), never real ones.
const KEYS = {
  openai: 'sk-test-4f9Qx2LmN8pR7sT1uV3w',
  openaiProject: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56',
  anthropic: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe',
  moonshot: 'sk-Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4Nm5Qw6Er7Ty',
  groq: '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',
  together: 'tgp_v1_Aq1Sw2De3Fr4Gt5Hy6Ju7Ki8Lo9P0',
  fireworks: 'fw_3ZxCvBnMaSdFgHjKlQwErTy',
};

test('every provider key shape is redacted inside any string', () => {
  for (const [provider, key] of Object.entries(KEYS)) {
    const out = redactString(`request failed for key ${key}.`);
    assert.ok(!out.includes(key), `${provider}: ${out}`);
    assert.ok(out.includes(REDACTED), provider);
  }
});

test('key fields written inside text (a raw body, a header dump, a query) are redacted', () => {
  const cases = [
    '{"api_key": "short-key-1234"',
    "{'apiKey': 'short-key-1234'}",
    'x-api-key: short-key-1234',
    'POST /v1?key=short-key-1234&x=1',
    'Authorization: Bearer short-key-1234',
    'api_key=short-key-1234',
  ];
  for (const c of cases) assert.ok(!redactString(c).includes('short-key-1234'), `${c} → ${redactString(c)}`);
  // Words that only look like key names stay.
  assert.equal(redactString('{"max_tokens": 100, "tokenizer": "kimi"}'), '{"max_tokens": 100, "tokenizer": "kimi"}');
  assert.equal(redactString('scikit-learn and sk-learn'), 'scikit-learn and sk-learn');
});

test('nested values, header values and key-named fields; the input is not touched', () => {
  const input = {
    headers: { 'x-api-key': 'abc', 'x-custom': `${KEYS.groq}` },
    body: { nested: [{ apiKey: 'abc' }, { text: `use ${KEYS.fireworks}` }] },
  };
  const copy = structuredClone(input);
  const out = redact(input);
  assert.deepEqual(input, copy);
  assert.ok(
    !JSON.stringify(out).includes(KEYS.groq) && !JSON.stringify(out).includes(KEYS.fireworks) && !JSON.stringify(out).includes('"abc"'),
  );
});

test('a value nested deeper than the walk goes is dropped, not copied, and does not overflow the stack', () => {
  const deep = JSON.parse('['.repeat(5000) + JSON.stringify(KEYS.openai) + ']'.repeat(5000)) as unknown;
  const out = redact(deep);
  const text = JSON.stringify(out);
  assert.ok(!text.includes(KEYS.openai));
  assert.match(text, /nested deeper than/);
});
