/**
 * The DeepSeek provider verifier's hash chain over one evidence file (attempts.jsonl, results.jsonl): every line's
 * `record_hash` is the sha256 of its envelope without it (deepseekEvidence.ts `envelopeHashHolds`), and every
 * line's `previous_hash` is the line before's `record_hash` (the first line's is 64 zeros), as the verifier's
 * evidence.py `_scan` checks them. A line edited, added, removed or reordered breaks it at that line.
 */
import { readFile } from 'node:fs/promises';
import { envelopeHashHolds } from '../../core/trace/importers/deepseekEvidence.ts';

export interface ChainCheck {
  lines: number;
  /** The first line where the chain does not hold, and why; null when it holds throughout. */
  broken: { line: number; reason: string } | null;
}

export async function checkEvidenceChain(path: string): Promise<ChainCheck> {
  const text = await readFile(path, 'utf8');
  let previous = '0'.repeat(64);
  let lines = 0;
  const all = text.split('\n');
  for (let i = 0; i < all.length; i++) {
    const line = all[i] ?? '';
    if (line.trim() === '') continue;
    lines++;
    let envelope: { previous_hash?: unknown; record_hash?: unknown };
    try {
      envelope = JSON.parse(line) as typeof envelope;
    } catch {
      return { lines, broken: { line: i + 1, reason: 'not JSON (a torn or edited line)' } };
    }
    if (envelope.previous_hash !== previous)
      return { lines, broken: { line: i + 1, reason: "previous_hash is not the line before's record_hash" } };
    if (envelopeHashHolds(line) !== true)
      return { lines, broken: { line: i + 1, reason: 'record_hash is not the sha256 of the line without it' } };
    previous = String(envelope.record_hash);
  }
  return { lines, broken: null };
}
