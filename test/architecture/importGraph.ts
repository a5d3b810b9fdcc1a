/**
 * Every relative import of `src/` and `webview/` (static, type-only, re-exports and dynamic), file by file, as repo
 * paths: what the architecture tests walk.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Relative imports of a file (static, type-only, re-exports and dynamic), resolved to repo paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    let target = relative(ROOT, resolve(ROOT, dirname(file), fileName))
      .split('\\')
      .join('/');
    // A stylesheet a module imports is a leaf: it imports no code.
    if (target.endsWith('.css')) continue;
    if (!target.endsWith('.ts')) target = existsSync(join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;
    out.push(target);
  }
  return out;
}

/** Each source file with the files it imports. */
export function graph(): Map<string, string[]> {
  const files = [...sourceFiles('src'), ...sourceFiles('webview')];
  return new Map(files.map((f) => [f, importsOf(f)]));
}
