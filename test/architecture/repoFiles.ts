/** The repository's files, for the architecture tests: paths relative to its root, with `/` between parts. */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Every file under `dir` (relative to the root) whose name ends with `ext`, folders walked depth first. */
export function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path, ext));
    else if (path.endsWith(ext)) out.push(path);
  }
  return out;
}
