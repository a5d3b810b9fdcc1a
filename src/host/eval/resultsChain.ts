/**
 * Tamper evidence for results files: every line Toolscope writes carries `toolscope_chain` — its sequence
 * number, the previous line's hash and its own, sha256 over the previous hash and the line's JSON without the
 * chain field. Editing a line breaks its hash; removing one breaks the next line's link and the sequence. (A cut
 * after the last line leaves no trace in the file itself: keep the final hash `eval verify` prints.)
 */
import { createHash } from 'node:crypto';
import { duplicateKey } from '../../core/util/duplicateKey.ts';

export interface ChainLink {
  seq: number;
  prev: string;
  hash: string;
}

export const CHAIN_FIELD = 'toolscope_chain';
const GENESIS = '0'.repeat(64);

function digest(prev: string, body: string): string {
  return createHash('sha256').update(prev).update('\n').update(body).digest('hex');
}

/** The value with its link appended (the chain field last, so the rest of the line reads as before). */
export function chainValue(
  value: Record<string, unknown>,
  previous: ChainLink | null,
): Record<string, unknown> & { toolscope_chain: ChainLink } {
  const { [CHAIN_FIELD]: _old, ...body } = value;
  const prev = previous?.hash ?? GENESIS;
  const link: ChainLink = { seq: (previous?.seq ?? 0) + 1, prev, hash: digest(prev, JSON.stringify(body)) };
  return { ...body, [CHAIN_FIELD]: link };
}

function linkOf(value: unknown): ChainLink | null {
  if (typeof value !== 'object' || value === null) return null;
  const link = (value as Record<string, unknown>)[CHAIN_FIELD];
  if (typeof link !== 'object' || link === null) return null;
  const { seq, prev, hash } = link as Record<string, unknown>;
  return typeof seq === 'number' && typeof prev === 'string' && typeof hash === 'string' ? { seq, prev, hash } : null;
}

/** The last link in a file's text (to continue the chain on resume), or null when no line is chained. */
export function lastLink(text: string): ChainLink | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (!line) continue;
    try {
      const link = linkOf(JSON.parse(line));
      if (link) return link;
    } catch {
      // a torn line: look further up
    }
  }
  return null;
}

export interface ChainProblem {
  line: number;
  message: string;
}

export interface ChainReport {
  /** Chained lines that check out. */
  verified: number;
  /** Of those, lines whose answers came from Toolscope's simulator (`toolscope_run.simulated`), not a model. */
  simulated: number;
  problems: ChainProblem[];
  last: ChainLink | null;
}

/** Checks every line of a results file against the chain; each break is reported with its line number. */
export function verifyChain(text: string): ChainReport {
  const problems: ChainProblem[] = [];
  let previous: ChainLink | null = null;
  let verified = 0;
  let simulated = 0;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ line, message: 'not a JSON line (torn or edited)' });
      return;
    }
    const link = linkOf(value);
    if (!link) {
      problems.push({ line, message: 'carries no toolscope_chain (added or written by another tool)' });
      return;
    }
    const { [CHAIN_FIELD]: _link, ...body } = value as Record<string, unknown>;
    const expectedPrev = previous?.hash ?? GENESIS;
    const expectedSeq = (previous?.seq ?? 0) + 1;
    let ok = true;
    // JSON.parse keeps the last of two equal keys, a first-wins reader the first: the hash would vouch for one
    // reading while another tool reads the other.
    const twice = duplicateKey(raw);
    if (twice) {
      problems.push({
        line,
        message: `holds the key ${JSON.stringify(twice.key)} twice (in ${twice.path}): readers disagree on its value`,
      });
      ok = false;
    }
    if (digest(link.prev, JSON.stringify(body)) !== link.hash) {
      problems.push({ line, message: `content does not match its hash (line ${link.seq} of the run was edited)` });
      ok = false;
    }
    if (link.seq !== expectedSeq || link.prev !== expectedPrev) {
      const gap = link.seq > expectedSeq ? ` — ${link.seq - expectedSeq} line(s) removed before it` : '';
      problems.push({
        line,
        message: `chain broken: expected line ${expectedSeq} of the run after ${previous ? `line ${previous.seq}` : 'the start'}, found line ${link.seq}${gap}`,
      });
      ok = false;
    }
    if (ok) {
      verified++;
      // The flag is inside the hashed body: a line that drops it no longer checks out.
      const run = body.toolscope_run;
      if (typeof run === 'object' && run !== null && (run as Record<string, unknown>).simulated === true) simulated++;
    }
    previous = link;
  });
  return { verified, simulated, problems, last: previous };
}
