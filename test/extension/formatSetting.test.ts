/** The `toolscope.format` setting: its manifest entry follows the registry, and its values map to analysis options. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatNames, getFormat } from '../../src/core/formats/registry.ts';
import { formatSettingValues, MANIFEST, syncedManifest } from '../../scripts/syncManifest.ts';
import { AUTO_FORMAT, formatFromSetting } from '../../src/core/formats/resolveFormat.ts';

interface SettingSchema {
  type: string;
  scope: string;
  default: string;
  enum: string[];
  enumDescriptions: string[];
  markdownDescription: string;
}

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};

test('package.json follows the format registry (`npm run manifest` writes it): nothing to edit by hand for a new format', () => {
  const text = readFileSync(MANIFEST, 'utf8');
  assert.equal(syncedManifest(text), text, 'package.json is behind the format registry: run `npm run manifest`');
  // Each value described by its format, from the format's own declaration.
  const { enumDescriptions } = formatSettingValues();
  for (const [i, name] of formatNames().entries()) assert.ok(enumDescriptions[i + 1]?.startsWith(`${getFormat(name).displayName}: `));
});

test('package.json contributes toolscope.format: auto plus every registered format, each described, default auto', () => {
  const setting = manifest.contributes.configuration.properties['toolscope.format'];
  assert.ok(setting, 'toolscope.format is contributed');
  assert.equal(setting.type, 'string');
  assert.equal(setting.default, AUTO_FORMAT);
  assert.deepEqual(setting.enum, [AUTO_FORMAT, ...formatNames()]);
  assert.equal(setting.enumDescriptions.length, setting.enum.length);
  assert.ok(setting.enumDescriptions.every((d) => d.trim().length > 20));
  assert.match(setting.markdownDescription, /--format/);
  // Reading a trace in another format is harmless: no need to restrict it in untrusted workspaces.
  assert.ok(!manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('toolscope.format'));
});

test('formatFromSetting: auto and unset mean per record; a format name forces it; anything else is reported and read as auto', () => {
  for (const v of [undefined, null, '', 'auto']) assert.deepEqual(formatFromSetting(v), { format: undefined, invalid: null }, String(v));
  for (const name of formatNames()) assert.deepEqual(formatFromSetting(name), { format: name, invalid: null });
  assert.deepEqual(formatFromSetting('Hermes'), { format: undefined, invalid: 'Hermes' });
  assert.deepEqual(formatFromSetting(3), { format: undefined, invalid: '3' });
});
