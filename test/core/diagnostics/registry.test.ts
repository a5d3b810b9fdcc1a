/**
 * The registry is the one place checks are listed: the catalogue of kinds is derived from it, so a kind declared
 * twice would silently collapse, and a check listed out of its stage would be listed in an order it does not run in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ASYNC_CHECKS,
  CHECKS,
  DIAGNOSTIC_KINDS,
  PROFILE_CHECKS,
  SYNC_CHECKS,
  diagnosticKindInfo,
} from '../../../src/core/diagnostics/registry.ts';

const declared = CHECKS.flatMap((c) => c.kinds.map((k) => ({ ...k })));

test('every kind and every code is declared by one check only', () => {
  const kinds = declared.map((k) => k.kind);
  const codes = declared.map((k) => k.code);
  assert.deepEqual(
    kinds.filter((k, i) => kinds.indexOf(k) !== i),
    [],
    'kinds declared twice',
  );
  assert.deepEqual(
    codes.filter((c, i) => codes.indexOf(c) !== i),
    [],
    'codes declared twice',
  );
  for (const { kind, code } of declared) assert.match(code, /^TS\d{3}$/, `${kind}: code ${code}`);
});

test('the catalogue is the declared kinds, in the order of their codes', () => {
  const byCode = [...declared].sort((a, b) => a.code.localeCompare(b.code));
  assert.deepEqual(Object.values(DIAGNOSTIC_KINDS), byCode);
  assert.deepEqual(
    Object.keys(DIAGNOSTIC_KINDS),
    byCode.map((k) => k.kind),
  );
  assert.equal(diagnosticKindInfo('call-in-think')?.code, 'TS010');
  assert.equal(diagnosticKindInfo('constructor'), undefined, 'only registered kinds, not the prototype');
});

test('the registry lists the stages in the order they run: sync, profile, async', () => {
  assert.deepEqual(CHECKS, [...SYNC_CHECKS, ...PROFILE_CHECKS, ...ASYNC_CHECKS]);
  assert.deepEqual(
    PROFILE_CHECKS.flatMap((c) => c.kinds.map((k) => k.kind)),
    ['vllm-divergence'],
  );
  assert.deepEqual(
    ASYNC_CHECKS.flatMap((c) => c.kinds.map((k) => k.kind)),
    ['guided-would-block', 'guided-accepts', 'guided-unavailable'],
  );
});
