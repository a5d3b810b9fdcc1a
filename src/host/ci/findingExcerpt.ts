/**
 * A finding's place in words for CI reports: the text it anchors to with a little context either side, the
 * anchored part in ⟦ ⟧, on one line (special tokens and newlines shown as they are, escaped).
 */
import type { AnalyzedRecord } from '../../core/analysis.ts';
import type { Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import { tokenSpanText } from '../../shared/tokenNumbers.ts';

const CONTEXT = 40;

function textOf(a: AnalyzedRecord, d: Diagnostic): string | null {
  if (d.where === 'completion') return a.completion?.text ?? null;
  if (d.where === 'response') return a.response?.content ?? null;
  return null;
}

export function findingExcerpt(a: AnalyzedRecord, d: Diagnostic): string | null {
  const text = textOf(a, d);
  if (text === null || d.charStart === null || d.charEnd === null) return null;
  const start = Math.max(0, Math.min(d.charStart, text.length));
  const end = Math.max(start, Math.min(d.charEnd, text.length));
  const one = (s: string) => JSON.stringify(s).slice(1, -1);
  const before = text.slice(Math.max(0, start - CONTEXT), start);
  const after = text.slice(end, end + CONTEXT);
  const mid = text.slice(start, Math.min(end, start + 200));
  return `${start > CONTEXT ? '…' : ''}${one(before)}⟦${one(mid)}${end - start > 200 ? '…' : ''}⟧${one(after)}${end + CONTEXT < text.length ? '…' : ''}`;
}

/** The finding as one paragraph: code, kind, message, tokens, JSON path, excerpt, hint. */
export function findingText(a: AnalyzedRecord, d: Diagnostic): string {
  const where = d.tokenStart !== null ? ` (${tokenSpanText(d.tokenStart, d.tokenEnd ?? d.tokenStart + 1)})` : '';
  const excerpt = findingExcerpt(a, d);
  return [
    `${d.code} ${d.kind} [${d.severity}]${where}: ${d.message}`,
    d.path ? `  at ${d.path}` : null,
    excerpt ? `  ${d.where}: ${excerpt}` : null,
    d.hint ? `  hint: ${d.hint}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

/** What CI reports keep of an analysed record (not its tokens or parse, so big traces stay small in memory). */
export interface CiRecord {
  id: string;
  line: number;
  lastLine: number;
  findings: Array<{ diagnostic: Diagnostic; excerpt: string | null; text: string }>;
}

export function ciRecord(a: AnalyzedRecord): CiRecord {
  return {
    id: a.id,
    line: a.line,
    lastLine: a.lastLine,
    findings: a.diagnostics.map((d) => ({ diagnostic: d, excerpt: findingExcerpt(a, d), text: findingText(a, d) })),
  };
}
