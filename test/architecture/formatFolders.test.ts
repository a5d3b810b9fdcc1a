/**
 * A tool-call format lives in its own folder (src/core/formats/<name>/): nothing outside that folder imports from
 * inside it but the registry, and the registry imports one file of it, the format. Everything else asks the format
 * for what it declares (`ToolCallFormat`: its tokenizer, tag, call header, vocabulary markup, engine profiles…), so
 * adding a format is a new folder and its registry line (docs/architecture.md, "Adding a format").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { graph } from './importGraph.ts';
import { formatNames } from '../../src/core/formats/registry.ts';

const FORMATS = 'src/core/formats';
const REGISTRY = `${FORMATS}/registry.ts`;

/** The registered formats' folders: the folders under src/core/formats/ the registry imports from. */
function formatFolders(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const folders = (edges.get(REGISTRY) ?? []).map((to) => dirname(to)).filter((dir) => dir.startsWith(`${FORMATS}/`));
  return [...new Set(folders)];
}

/** Imports into a format's folder from outside it, the registry's excepted. */
function intrusions(edges: ReadonlyMap<string, readonly string[]>, folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const [from, targets] of edges) {
    for (const to of targets) {
      const folder = folders.find((f) => to.startsWith(`${f}/`));
      if (folder && from !== REGISTRY && !from.startsWith(`${folder}/`)) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

test("nothing outside a format's folder imports from inside it but the registry, which imports the format alone", () => {
  const edges = graph();
  const folders = formatFolders(edges);
  assert.equal(folders.length, formatNames().length, `one folder per registered format: ${folders.join(', ')}`);
  const found = intrusions(edges, folders);
  assert.deepEqual(found, [], `ask the format's capabilities (ToolCallFormat) instead:\n${found.join('\n')}`);
  for (const folder of folders) {
    const imported = (edges.get(REGISTRY) ?? []).filter((to) => to.startsWith(`${folder}/`));
    assert.equal(imported.length, 1, `the registry imports ${imported.join(', ')}: only the format`);
  }
});

test('the check sees an import into a format folder, from another format or from another layer', () => {
  const edges = new Map([
    [REGISTRY, [`${FORMATS}/a/aFormat.ts`, `${FORMATS}/b/bFormat.ts`, `${FORMATS}/toolCallFormat.ts`]],
    [`${FORMATS}/a/aFormat.ts`, [`${FORMATS}/a/aMarkers.ts`, `${FORMATS}/kernel/markupParser.ts`]],
    [`${FORMATS}/b/bFormat.ts`, [`${FORMATS}/a/aMarkers.ts`]],
    ['src/core/guided/whatIf.ts', [`${FORMATS}/a/aMarkers.ts`, `${FORMATS}/toolCallFormat.ts`]],
  ]);
  const folders = formatFolders(edges);
  assert.deepEqual(folders, [`${FORMATS}/a`, `${FORMATS}/b`]);
  assert.deepEqual(intrusions(edges, folders), [
    `${FORMATS}/b/bFormat.ts -> ${FORMATS}/a/aMarkers.ts`,
    `src/core/guided/whatIf.ts -> ${FORMATS}/a/aMarkers.ts`,
  ]);
});
