/** The read-only reference set beside the repo (`../shared`), used by tests that skip when it is absent. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const KIMI = fileURLToPath(new URL('../../../../shared/data/kimi/', import.meta.url));

/** The text of a file in ../shared/data/kimi, or null when ../shared is not present. */
export function readKimiReference(name: string): string | null {
  const path = KIMI + name;
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** A small seeded generator (mulberry32), so property tests are reproducible. */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
  };
}
