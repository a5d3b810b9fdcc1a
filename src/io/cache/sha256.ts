/**
 * The hex sha256 of some bytes or text, with node:crypto loaded on first use rather than when the caches' modules load:
 * the CLI's launcher imports them, and loading node:crypto (~2.5 ms of CPU, measured) before it has started the grammar
 * worker delayed that worker, whose start-up is the longest path of a short `analyze`.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return (process.getBuiltinModule('node:crypto') as typeof import('node:crypto')).hash('sha256', data, 'hex');
}
