/**
 * One completion through one vLLM-behaviour profile, the way a vLLM server would have fed it: its tokens grouped
 * into deltas (each token one delta, N tokens per delta, or the grouping the record shows), token ids where they
 * were recorded (special tokens always get Kimi's real ids). A leading `<think>` block goes to vLLM's reasoning
 * parser first, as in a server started with `--reasoning-parser`: the tool parser sees what follows `</think>` —
 * or, from the generation whose reasoning parser ends there (B and C), what follows from a section begin inside the
 * think block. Without a reasoning parser (`reasoningParser: false`) the tool parser sees the whole completion.
 * The result is what the client would have received: every DeltaMessage (or null), and content and calls
 * rebuilt from them the way a client accumulates a stream, plus the non-streaming answer.
 */
import { DeltaAccumulator } from '../../../trace/deltaAccumulator.ts';
import type { Token } from '../../../tokens/token.ts';
import { pseudoTokenize, streamDeltas, type DeltaGrouping, type DeltaToken } from './vllmDeltas.ts';
import { vllmProfile } from './vllmProfiles.ts';
import { SECTION_BEGIN } from '../kimiK2Markers.ts';
import type { VllmCall, VllmDeltaEntry, VllmGroupingUsed, VllmRun, VllmRunInput } from '../../engineRun.ts';

export type { VllmCall, VllmDeltaEntry, VllmGroupingChoice, VllmGroupingUsed, VllmRun, VllmRunInput } from '../../engineRun.ts';

/**
 * Where the reasoning parser hands over: after the first `</think>` of a completion that starts inside one, or
 * with `endsAtSection` at a `<|tool_calls_section_begin|>` token before it (which goes to the tool parser).
 */
export function reasoningEnd(tokens: readonly Token[], textLength: number, startInReasoning = false, endsAtSection = false): number {
  let i = 0;
  if (!startInReasoning) {
    while (i < tokens.length && (tokens[i] as Token).text.trim() === '') i++;
    if (i >= tokens.length || (tokens[i] as Token).text !== '<think>') return 0;
    i++;
  }
  for (; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.text === '</think>') return t.charEnd;
    if (endsAtSection && t.text === SECTION_BEGIN) return t.charStart;
  }
  return textLength;
}

/** The tool parser's tokens: the completion's from `from` on, as recorded when they tile the text. */
function deltaTokens(text: string, tokens: readonly Token[], from: number): DeltaToken[] {
  const rest: DeltaToken[] = [];
  let at = from;
  for (const t of tokens) {
    if (t.charStart < from) continue;
    // Compared in place (the token's text at its offsets), not through a slice per token.
    if (t.charStart !== at || t.charEnd <= t.charStart || t.charEnd - t.charStart !== t.text.length || !text.startsWith(t.text, at)) {
      return pseudoTokenize(text.slice(from));
    }
    at = t.charEnd;
    // The token itself (a delta token is its text and id): not a copy of each of some 30,000 kept to the end.
    rest.push(t);
  }
  if (at !== text.length) return pseudoTokenize(text.slice(from));
  return rest;
}

/** The recorded delta texts from `from` on (the reasoning parser had the ones before). */
function cutTexts(texts: readonly string[], from: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (const t of texts) {
    const end = at + t.length;
    if (end > from) out.push(at >= from ? t : t.slice(from - at));
    at = end;
  }
  return out;
}

function callsOf(calls: ReadonlyArray<{ id: string | null; name: string | null; arguments: string }>): VllmCall[] {
  return calls.map((c) => ({ id: c.id ?? '', name: c.name ?? '', arguments: c.arguments }));
}

export function runVllmProfile(input: VllmRunInput): VllmRun {
  const profile = vllmProfile(input.generation);
  const { text } = input;
  const from =
    input.reasoningParser === false
      ? 0
      : reasoningEnd(input.tokens, text.length, input.startInReasoning, profile.reasoningParser.endsAtSection);
  const tokens = deltaTokens(text, input.tokens, from);
  let grouping: VllmGroupingUsed;
  let plan: DeltaGrouping;
  let groupingNote: string | null = null;
  if (input.grouping.kind === 'recorded' && input.recorded) {
    grouping = { kind: 'recorded', source: input.recorded.source };
    plan = { kind: 'recorded', texts: cutTexts(input.recorded.texts, from) };
  } else {
    const perDelta = input.grouping.kind === 'tokens' ? Math.max(1, Math.floor(input.grouping.perDelta) || 1) : 1;
    if (input.grouping.kind === 'recorded')
      groupingNote = 'the record holds no delta grouping (a streamed answer with per-chunk tokens): 1 token per delta instead';
    grouping = { kind: 'tokens', perDelta };
    plan = { kind: 'tokens', perDelta };
  }
  const { deltas: input_, decodeToken } = streamDeltas(tokens, plan);
  const parser = profile.createStreamParser({ decodeToken });
  const acc = new DeltaAccumulator({ fragments: false });
  const deltas: VllmDeltaEntry[] = [];
  const spans: VllmRun['spans'] = [];
  let at = from;
  for (const d of input_) {
    const message = parser.push(d.text, d.ids);
    deltas.push(message);
    acc.add(message);
    spans.push({ start: at, end: at + d.text.length });
    at += d.text.length;
  }
  if (profile.hasFinish) {
    const last = parser.finish();
    deltas.push({ __finish__: last });
    acc.add(last);
  }
  const message = acc.message();
  const oneShot = profile.extract(text.slice(from));
  return {
    profile: profile.generation,
    commit: profile.commit,
    description: profile.description,
    grouping,
    groupingNote,
    recordedSource: input.recorded?.source ?? null,
    reasoningEnd: from,
    content: message.content,
    calls: callsOf(message.calls),
    deltas,
    spans,
    nonstream: {
      content: oneShot.content === '' ? null : oneShot.content,
      calls: oneShot.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    },
  };
}
