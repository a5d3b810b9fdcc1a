/**
 * Replay comparison for the trace editor: for a replay record (`meta.replayOf`), the recorded original next to
 * every replay of it in the same file (guided off / on, chat / completions), each with its calls, finish reason
 * and findings, and a word diff of what the client got in the first two that differ (guided off vs on, or the
 * recording vs its replay). The original is looked up in the trace the replays file sits beside.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { diffWordsWithSpace } from 'diff';
import type { Analyzer, AnalyzedRecord } from '../../core/analysis.ts';
import { readTraceItems } from '../../io/trace/traceIndex.ts';
import type { LoadedRecord } from '../../core/trace/record.ts';
import type { ComparisonColumn, ComparisonView, PartingView } from '../../shared/protocol.ts';

/** The text a client got: content, then each call as `name(arguments)`, one a line. */
export function clientText(a: AnalyzedRecord): string {
  const lines: string[] = [];
  if (a.content) lines.push(a.content);
  for (const c of a.calls) lines.push(`${c.name}(${c.arguments})`);
  return lines.join('\n');
}

const metaText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function column(label: string, a: AnalyzedRecord, loaded: LoadedRecord): ComparisonColumn {
  const meta = loaded.record.meta ?? {};
  const response = loaded.record.response;
  const answeredBy = Array.isArray(response) ? response[0]?.model : response?.model;
  return {
    label,
    recordId: a.id,
    endpoint: metaText(meta.endpoint),
    model: metaText(meta.model) ?? metaText(answeredBy) ?? metaText(loaded.record.request?.model),
    created: metaText(meta.created),
    finishReason: a.response?.finishReason ?? null,
    content: a.content,
    calls: a.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
    findings: a.diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d) => ({ code: d.code, kind: d.kind, severity: d.severity, message: d.message })),
    error: a.error,
  };
}

function replayLabel(loaded: LoadedRecord): string {
  const meta = loaded.record.meta ?? {};
  const guided = meta.guided === true ? 'guided on' : meta.guided === false ? 'guided off' : 'replay';
  return typeof meta.mode === 'string' && meta.mode !== 'chat' ? `${guided} (${meta.mode})` : guided;
}

/** The trace a `<name>.replays.jsonl` file was written beside. */
export function originalTracePath(replaysPath: string): string | null {
  return /\.replays\.jsonl$/u.test(replaysPath) ? replaysPath.replace(/\.replays\.jsonl$/u, '.jsonl') : null;
}

/**
 * Where `own`'s tokens part from `other`'s: the first index whose token text differs (a shorter answer parts where it
 * ends). Null unless both hold tokens to compare.
 */
export function partingToken(own: AnalyzedRecord, other: AnalyzedRecord): Pick<PartingView, 'token' | 'here' | 'there'> | null {
  const a = own.completion?.tokens ?? [];
  const b = other.completion?.tokens ?? [];
  if (!a.length || !b.length) return null;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i]?.text !== b[i]?.text) return { token: i, here: a[i]?.text ?? null, there: b[i]?.text ?? null };
  }
  if (a.length === b.length) return { token: null, here: null, there: null };
  // One answer goes on where the other stopped: they part at the shorter one's end (on the longer's side).
  const i = Math.min(n, a.length - 1);
  return { token: i, here: a[n]?.text ?? null, there: b[n]?.text ?? null };
}

/** Replays of one recording sent to the view (the newest); the user picks which to show side by side. */
const MAX_REPLAYS = 12;
const MAX_DIFF_TEXT = 200_000;

export async function comparisonFor(path: string, loaded: LoadedRecord, analyzer: Analyzer): Promise<ComparisonView | null> {
  const replayOf = loaded.record.meta?.replayOf;
  if (typeof replayOf !== 'string') return null;
  // Every replay of the same original in this file, oldest first; the most recent few.
  const replays: LoadedRecord[] = [];
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'record' && item.loaded.record.meta?.replayOf === replayOf) replays.push(item.loaded);
  }
  const shown = replays.slice(-MAX_REPLAYS);
  if (!shown.some((r) => r.record.id === loaded.record.id)) shown.push(loaded);
  const columns: ComparisonColumn[] = [];
  const texts: string[] = [];
  let originalNote: string | null = null;
  const originalPath = originalTracePath(path);
  if (originalPath && existsSync(originalPath)) {
    let original: LoadedRecord | null = null;
    for await (const item of readTraceItems(originalPath)) {
      if (item.kind === 'record' && item.loaded.record.id === replayOf) {
        original = item.loaded;
        break;
      }
    }
    if (original) {
      const a = analyzer.analyze(original);
      columns.push(column('recorded', a, original));
      texts.push(clientText(a));
    } else originalNote = `record ${replayOf} is not in ${basename(originalPath)}`;
  } else
    originalNote = originalPath
      ? `${basename(originalPath)} is not beside this file`
      : 'this file is not a <trace>.replays.jsonl: the original is not looked up';
  const analysed = new Map<LoadedRecord, AnalyzedRecord>();
  for (const r of shown) {
    const a = analyzer.analyze(r);
    analysed.set(r, a);
    columns.push(column(replayLabel(r), a, r));
    texts.push(clientText(a));
  }
  // The newest replay of the same recording in the same mode with guided decoding the other way.
  const meta = loaded.record.meta ?? {};
  const counterpart =
    typeof meta.guided === 'boolean'
      ? [...replays].reverse().find((r) => r.record.meta?.guided === !meta.guided && r.record.meta?.mode === meta.mode)
      : undefined;
  let parting: PartingView | null = null;
  if (counterpart) {
    const own = analysed.get(shown.find((r) => r.record.id === loaded.record.id) ?? loaded) ?? analyzer.analyze(loaded);
    const other = analysed.get(counterpart) ?? analyzer.analyze(counterpart);
    const at = partingToken(own, other);
    if (at) parting = { ownLabel: replayLabel(loaded), otherLabel: replayLabel(counterpart), otherId: counterpart.record.id, ...at };
  }
  // Diff the two replays (off vs on) when there are two, else the recording against its replay.
  const replayStart = columns.length - shown.length;
  const pair: [number, number] | null =
    shown.length >= 2 ? [columns.length - 2, columns.length - 1] : replayStart > 0 ? [0, replayStart] : null;
  let diff: ComparisonView['diff'] = null;
  if (pair) {
    const [l, r] = pair;
    const left = (texts[l] ?? '').slice(0, MAX_DIFF_TEXT);
    const right = (texts[r] ?? '').slice(0, MAX_DIFF_TEXT);
    diff = {
      left: columns[l]?.label ?? '',
      right: columns[r]?.label ?? '',
      parts: diffWordsWithSpace(left, right).map((c) => ({ op: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value })),
    };
  }
  return { replayOf, columns, diff, originalNote, parting };
}
