import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DIAGNOSTIC_KINDS } from '../src/core/diagnostics/registry.ts';

test('docs/diagnostics.md lists every kind with its code and default severity', () => {
  const doc = readFileSync(new URL('../docs/diagnostics.md', import.meta.url), 'utf8');
  for (const [kind, { code, severity }] of Object.entries(DIAGNOSTIC_KINDS)) {
    const row = doc.split('\n').find((l) => l.startsWith(`| ${code} |`));
    assert.ok(row, `${code} missing from docs/diagnostics.md`);
    assert.ok(row.includes(`\`${kind}\``), `${code} row does not name ${kind}`);
    assert.ok(row.includes(severity), `${code} row does not give severity ${severity}`);
  }
});

test('diagnostic codes are unique', () => {
  const codes = Object.values(DIAGNOSTIC_KINDS).map((k) => k.code);
  assert.equal(new Set(codes).size, codes.length);
});
