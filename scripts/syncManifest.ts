/**
 * The manifest follows the format registry: the values of the `toolscope.format` setting (auto, then every registered
 * format) and their descriptions (each format's `displayName: markupSketch`) are written into package.json from the
 * registry, so adding a format edits nothing by hand outside its folder and the registry line.
 * `npm run manifest` writes them; `npm run manifest -- --check` (and test/extension/formatSetting.test.ts) fails when
 * package.json is behind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatNames, getFormat } from '../src/core/formats/registry.ts';
import { AUTO_FORMAT } from '../src/core/formats/resolveFormat.ts';

export const MANIFEST = join(import.meta.dirname, '..', 'package.json');

const AUTO_DESCRIPTION =
  "Per record: the record's meta.format, else detected from its markup, its meta.parser, its model name or its history's call ids; Kimi K2 assumed when nothing tells.";

/** The setting's values and their descriptions, in registry order. */
export function formatSettingValues(): { enum: string[]; enumDescriptions: string[] } {
  const formats = formatNames().map(getFormat);
  return {
    enum: [AUTO_FORMAT, ...formats.map((f) => f.name)],
    enumDescriptions: [AUTO_DESCRIPTION, ...formats.map((f) => `${f.displayName}: ${f.markupSketch}.`)],
  };
}

interface Manifest {
  contributes: { configuration: { properties: Record<string, Record<string, unknown>> } };
}

/** package.json's text with the setting's values brought up to date (unchanged text when they are). */
export function syncedManifest(text: string): string {
  const manifest = JSON.parse(text) as Manifest;
  const setting = manifest.contributes.configuration.properties['toolscope.format'];
  if (!setting) throw new Error('package.json contributes no toolscope.format setting');
  Object.assign(setting, formatSettingValues());
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const text = readFileSync(MANIFEST, 'utf8');
  const synced = syncedManifest(text);
  if (synced === text) {
    console.log('package.json: toolscope.format is up to date');
  } else if (process.argv.includes('--check')) {
    console.error('package.json: toolscope.format is behind the format registry; run `npm run manifest`');
    process.exit(1);
  } else {
    writeFileSync(MANIFEST, synced);
    console.log('package.json: toolscope.format written from the format registry');
  }
}
