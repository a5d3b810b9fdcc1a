/**
 * The trace editor's vLLM tab for one record: the reference parse and what the chosen vLLM generation would have
 * sent, line by line (content, each call) with the vllm-divergence findings that explain each difference, the
 * non-streaming answer, and every delta fed to the parser with what vLLM returned for it.
 */
import type { AnalyzedRecord } from '../../core/analysis.ts';
import { tokenRange } from '../../core/diagnostics/context.ts';
import { pairCalls } from '../../core/formats/pairEngineCalls.ts';
import { groupingLabel, type VllmDeltaEntry, type VllmDeltaMessage } from '../../core/formats/engineRun.ts';
import type { VllmDeltaView, VllmRowView, VllmView } from '../../shared/protocol.ts';

/** Past this many deltas the list is cut (the side by side covers them all). */
export const VLLM_DELTAS_SHOWN = 2000;

const CONTENT_DETAILS = new Set(['content-dropped', 'content-leaked']);

const asMessage = (d: VllmDeltaEntry): VllmDeltaMessage | null => (d === null || '__finish__' in d ? null : d);

export function vllmView(a: AnalyzedRecord): VllmView | null {
  const run = a.vllm;
  if (!run || !a.parse || !a.completion) return null;
  const { tokens, text } = a.completion;
  const diagnostics = a.diagnostics.filter((d) => d.kind === 'vllm-divergence');
  const indices = (pick: (d: (typeof diagnostics)[number]) => boolean) => diagnostics.flatMap((d, i) => (pick(d) ? [i] : []));

  const rows: VllmRowView[] = [
    {
      kind: 'content',
      reference: { content: a.parse.content },
      vllm: { content: run.content },
      findings: indices((d) => CONTENT_DETAILS.has(d.detail ?? '')),
    },
  ];
  const { pairs, extra } = pairCalls(a.parse.calls, run.calls);
  for (const { ref, got } of pairs) {
    rows.push({
      kind: 'call',
      reference: { id: ref.id, name: ref.name, arguments: ref.arguments },
      vllm: got ? { ...got } : null,
      findings: indices((d) => d.callIndex === ref.index && !CONTENT_DETAILS.has(d.detail ?? '') && d.detail !== 'call-added'),
    });
  }
  // call-added findings come in the order of the extra calls.
  const added = indices((d) => d.detail === 'call-added');
  extra.forEach((c, i) => rows.push({ kind: 'call', reference: null, vllm: { ...c }, findings: added[i] !== undefined ? [added[i]] : [] }));

  const deltas: VllmDeltaView[] = run.spans.slice(0, VLLM_DELTAS_SHOWN).map((span, i) => {
    const range = tokenRange(tokens, span.start, span.end);
    return {
      text: text.slice(span.start, span.end),
      tokenStart: range.tokenStart ?? 0,
      tokenEnd: range.tokenEnd ?? 0,
      message: asMessage(run.deltas[i] ?? null),
    };
  });
  const last = run.deltas.at(-1);
  const view: VllmView = {
    profile: run.profile,
    commit: run.commit,
    description: run.description,
    grouping: run.grouping,
    groupingLabel: groupingLabel(run.grouping),
    groupingNote: run.groupingNote,
    recordedSource: run.recordedSource,
    reasoningTokens: tokens.filter((t) => t.charEnd <= run.reasoningEnd).length,
    rows,
    nonstream: { content: run.nonstream.content, reasoning: null, calls: run.nonstream.calls },
    deltas,
    deltasTotal: run.spans.length,
    diagnostics,
  };
  // A generation with an end-of-stream flush ends its deltas with it (`{__finish__}`); the others have none.
  if (last && '__finish__' in last) view.finish = last.__finish__;
  return view;
}
