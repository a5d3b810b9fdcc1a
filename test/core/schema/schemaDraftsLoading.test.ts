/**
 * ajv is loaded on first use, one draft's class at a time (schemaDrafts.ts): loaded with the extension, it was on the
 * path from the open command to the extension's `activate`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** ajv's files loaded so far (ajv, ajv-formats, ajv-draft-04), as paths from node_modules on. */
const ajvLoaded = () =>
  Object.keys(require.cache)
    .map((k) => k.replace(/\\/gu, '/'))
    .filter((k) => /\/node_modules\/ajv(-formats|-draft-04)?\//u.test(k))
    .map((k) => k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length));

test('schema drafts: ajv is loaded when a schema is first checked, and only the class of its draft', async () => {
  const { newAjv, schemaDraft } = await import('../../../src/core/schema/schemaDrafts.ts');
  assert.equal(schemaDraft({ $schema: 'http://json-schema.org/draft-07/schema#' }), 'draft-07');
  assert.deepEqual(ajvLoaded(), [], 'nothing of ajv loaded with the module');
  const ajv = newAjv('2020-12', false);
  assert.equal(ajv.validate({ type: 'object', required: ['a'] }, {}), false);
  const loaded = ajvLoaded();
  assert.ok(loaded.includes('ajv/dist/2020.js'), loaded.join(', '));
  assert.ok(loaded.includes('ajv-formats/dist/index.js'), loaded.join(', '));
  assert.ok(!loaded.some((k) => k.startsWith('ajv-draft-04/')), `draft-04's class is not loaded: ${loaded.join(', ')}`);
  assert.ok(!loaded.includes('ajv/dist/2019.js'), `2019-09's class is not loaded: ${loaded.join(', ')}`);
  // A draft-06 schema's ajv gets draft-06's meta-schema.
  assert.equal(newAjv('draft-06', false).validate({ type: 'string' }, 1), false);
  assert.ok(ajvLoaded().includes('ajv/dist/refs/json-schema-draft-06.json'));
});
