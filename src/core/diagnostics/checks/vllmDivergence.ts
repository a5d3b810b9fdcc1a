/**
 * vllm-divergence: where what a vLLM generation would have streamed (a vLLM-behaviour profile run over the raw
 * completion) differs from Toolscope's reference parse. One finding per difference, `where: "response"` (the
 * profile's answer), `detail` naming it; token positions point at the completion tokens behind it.
 */
import type { ParsedCall } from '../../formats/toolCallFormat.ts';
import { groupingLabel, type VllmRun } from '../../formats/engineRun.ts';
import { pairCalls } from '../../formats/pairEngineCalls.ts';
import type { Token } from '../../tokens/token.ts';
import { defineCheck, diagnosticKind } from '../check.ts';
import { tokenRange } from '../context.ts';
import type { Diagnostic, Severity } from '../diagnostic.ts';

const VLLM_DIVERGENCE = diagnosticKind({
  kind: 'vllm-divergence',
  code: 'TS026',
  severity: 'warning',
  title: 'A vLLM generation would have sent something else',
});

export const VLLM_DIVERGENCE_DETAILS = [
  'content-dropped',
  'content-leaked',
  'call-dropped',
  'call-added',
  'arguments-truncated',
  'arguments-changed',
  'id-changed',
  'name-changed',
] as const;
export type VllmDivergenceDetail = (typeof VLLM_DIVERGENCE_DETAILS)[number];

interface VllmDivergenceInput {
  run: VllmRun;
  /** The reference parse of the same completion. */
  reference: { content: string | null; calls: readonly ParsedCall[] };
  /** The completion text and its tokens (for anchoring). */
  text: string;
  tokens: readonly Token[];
}

const MARKUP = /<\|tool_call|<\|tool_calls_section|<think>|<\/think>/u;

function quote(s: string, max = 60): string {
  return JSON.stringify(s.length > max ? s.slice(0, max - 1) + '…' : s);
}

const isBlank = (s: string) => s.trim() === '';

/** `part`'s characters appear in `whole` in order (what a client got when pieces went missing). */
function isSubsequence(part: string, whole: string): boolean {
  let j = 0;
  for (let i = 0; i < whole.length && j < part.length; i++) if (whole[i] === part[j]) j++;
  return j === part.length;
}

const CALL_ADDED =
  'vLLM would have sent a call the reference parse does not count as one: e.g. a bare `<|tool_call_begin|>` inside a `<think>` block after the content, which the reference keeps as reasoning (call-in-think).';

/** What each generation is known to do, for the hints (docs/formats/kimi-k2.md lists them all). */
const HINTS: Record<VllmDivergenceDetail, Record<'A' | 'B' | 'C' | 'any', string>> = {
  'content-dropped': {
    A: 'Generation A loses content that arrives in the same delta as the section begin, and text inside the tool-call section.',
    B: 'Generation B sends only the text before the section begin and never flushes a held-back partial marker at the end of the stream.',
    C: 'Generation C drops text inside the section, after its end and `</think>`, and whitespace-only content once a call exists.',
    any: 'The server-side parser drops text the model wrote; the reference parser keeps it as content.',
  },
  'content-leaked': {
    A: 'Generation A leaks text after the section end and dumps a section over 8192 characters (or a begin marker split across deltas) into content.',
    B: 'Generation B streams the singular section spelling and everything after it as content.',
    C: 'Generation C recognises markers only as special-token ids: a marker spelled as text (split across tokens, or the singular section spelling) and everything after it stay content.',
    any: 'Markup or text the reference parser does not count as content would reach the client as content.',
  },
  'call-dropped': {
    A: 'Generation A never streams a call that begins and ends within one delta (several tokens per delta: speculative decoding), nor one whose header starts with a newline.',
    B: 'Generation B stops streaming calls after the first header that is not name:digit.',
    C: 'Generation C skips a call whose header it cannot read, or whose markers are not special tokens.',
    any: 'The server-side parser would have lost this call.',
  },
  'call-added': {
    A: CALL_ADDED,
    B: CALL_ADDED,
    C: CALL_ADDED,
    any: CALL_ADDED,
  },
  'arguments-truncated': {
    A: "Generation A's streaming regex stops at the first newline in the arguments, and the end of a call's arguments is lost when that call's end and the next call's begin arrive in one delta. Upgrade vLLM.",
    B: 'The arguments stop short of what the model wrote.',
    C: 'Generation C holds the closing brace until the call ends: an unterminated call never gets it.',
    any: 'The client would have received only part of the arguments.',
  },
  'arguments-changed': {
    A: 'Generation A drops whitespace after the argument marker and keeps or loses trailing whitespace depending on the split.',
    B: 'Generation B streams the raw argument text, whitespace included (the reference trims it).',
    C: 'Generation C keeps argument whitespace (the reference trims it).',
    any: 'The client would have received different argument text.',
  },
  'id-changed': {
    A: 'Generation A sends the id as soon as name:digit is readable: `:1` for `:10` when the index is split across deltas.',
    B: 'The client would have received another call id.',
    C: 'Generation C invents an id when the header is not name:digit.',
    any: 'The client would have received another call id.',
  },
  'name-changed': {
    A: 'Generations A and B keep only the last dotted segment of the name (`web.search` → `search`).',
    B: 'Generations A and B keep only the last dotted segment of the name (`web.search` → `search`).',
    C: 'Generation C cuts the name at the first `:` after `functions.`.',
    any: 'The client would have received another tool name.',
  },
};

interface Finding {
  detail: VllmDivergenceDetail;
  severity: Severity;
  message: string;
  charStart?: number | null;
  charEnd?: number | null;
  /** Completion chars behind it, for token positions. */
  anchor?: { start: number; end: number } | null;
  callIndex?: number;
}

/** Completion chars of the deltas whose content produced `[from, to)` of the profile's content. */
function contentSource(run: VllmRun, from: number, to: number, textLength: number): { start: number; end: number } | null {
  let at = 0;
  let start = -1;
  let end = -1;
  run.deltas.forEach((d, i) => {
    if (d === null) return;
    const message = '__finish__' in d ? d.__finish__ : d;
    const c = message?.content;
    if (typeof c !== 'string' || c === '') return;
    const span = run.spans[i] ?? { start: textLength, end: textLength };
    if (at < to && at + c.length > from) {
      if (start < 0) start = span.start;
      end = span.end;
    }
    at += c.length;
  });
  return start < 0 ? null : { start, end };
}

function contentFindings(input: VllmDivergenceInput, gen: string): Finding[] {
  const want = input.reference.content ?? '';
  const got = input.run.content ?? '';
  if (want === got) return [];
  let p = 0;
  while (p < want.length && p < got.length && want[p] === got[p]) p++;
  let s = 0;
  while (s < want.length - p && s < got.length - p && want[want.length - 1 - s] === got[got.length - 1 - s]) s++;
  const dropped = want.slice(p, want.length - s);
  const leaked = got.slice(p, got.length - s);
  const out: Finding[] = [];
  if (dropped) {
    const at = input.text.indexOf(dropped, input.run.reasoningEnd);
    out.push({
      detail: 'content-dropped',
      severity: isBlank(dropped) ? 'info' : 'warning',
      message: `generation ${gen} would not have sent ${isBlank(dropped) ? `the whitespace ${quote(dropped)}` : quote(dropped)} of the content (${dropped.length} of ${want.length} characters lost)`,
      charStart: p,
      charEnd: p,
      anchor: at >= 0 ? { start: at, end: at + dropped.length } : null,
    });
  }
  if (leaked) {
    const markup = MARKUP.test(leaked);
    out.push({
      detail: 'content-leaked',
      severity: markup ? 'error' : isBlank(leaked) ? 'info' : 'warning',
      message: `generation ${gen} would have sent ${quote(leaked)} as content${markup ? ' (tool-call markup)' : ''}, which the reference parse does not count as content`,
      charStart: p,
      charEnd: p + leaked.length,
      anchor: contentSource(input.run, p, p + leaked.length, input.text.length),
    });
  }
  return out;
}

function callFindings(input: VllmDivergenceInput, gen: string): Finding[] {
  const { pairs, extra } = pairCalls(input.reference.calls, input.run.calls);
  const out: Finding[] = [];
  const sent = input.run.calls.length;
  for (const { ref, got } of pairs) {
    const anchor = { start: ref.span.start, end: ref.span.end };
    const label = `call ${quote(ref.id, 80)}`;
    if (!got) {
      out.push({
        detail: 'call-dropped',
        severity: 'error',
        callIndex: ref.index,
        anchor,
        message: `generation ${gen} would not have sent ${label} (${ref.name}): the client would have got ${sent} of ${input.reference.calls.length} calls`,
      });
      continue;
    }
    if (got.id !== ref.id)
      out.push({
        detail: 'id-changed',
        severity: 'warning',
        callIndex: ref.index,
        anchor,
        message: `${label} would have arrived with the id ${quote(got.id, 80)}`,
      });
    if (got.name !== ref.name)
      out.push({
        detail: 'name-changed',
        severity: 'warning',
        callIndex: ref.index,
        anchor,
        message: `${label} would have arrived named ${quote(got.name, 80)} instead of ${quote(ref.name, 80)}`,
      });
    if (got.arguments !== ref.arguments) {
      const argsAnchor = ref.argumentsSpan ? { start: ref.argumentsSpan.start, end: ref.argumentsSpan.end } : anchor;
      const want = ref.arguments.trim();
      const have = got.arguments.trim();
      if (want === have) {
        out.push({
          detail: 'arguments-changed',
          severity: 'info',
          callIndex: ref.index,
          anchor: argsAnchor,
          message: `arguments of ${label} would have arrived with other whitespace around them: ${quote(got.arguments)}`,
        });
      } else if (have.length < want.length && isSubsequence(have, want)) {
        const message =
          have === ''
            ? `arguments of ${label} would not have arrived at all (${want.length} characters written)`
            : want.startsWith(have)
              ? `arguments of ${label} would have stopped after ${have.length} of ${want.length} characters: ${quote(have)}`
              : `arguments of ${label} would have lost ${want.length - have.length} of ${want.length} characters: ${quote(got.arguments)}`;
        out.push({ detail: 'arguments-truncated', severity: 'error', callIndex: ref.index, anchor: argsAnchor, message });
      } else {
        out.push({
          detail: 'arguments-changed',
          severity: 'warning',
          callIndex: ref.index,
          anchor: argsAnchor,
          message: `arguments of ${label} would have arrived as ${quote(got.arguments)} instead of ${quote(ref.arguments)}`,
        });
      }
    }
  }
  for (const c of extra) {
    out.push({
      detail: 'call-added',
      severity: 'warning',
      message: `generation ${gen} would have sent a call the reference parse does not see: ${quote(c.id, 80)} (${quote(c.name, 80)}) with ${quote(c.arguments)}`,
    });
  }
  return out;
}

function divergences(input: VllmDivergenceInput): Diagnostic[] {
  const gen = input.run.profile;
  const entry = VLLM_DIVERGENCE;
  const how = groupingLabel(input.run.grouping);
  return [...contentFindings(input, gen), ...callFindings(input, gen)].map((f) => {
    const range = f.anchor ? tokenRange(input.tokens, f.anchor.start, f.anchor.end) : { tokenStart: null, tokenEnd: null };
    const d: Diagnostic = {
      code: entry.code,
      kind: entry.kind,
      severity: f.severity,
      message: `${f.message} (vLLM profile ${gen}, streamed ${how})`,
      hint: HINTS[f.detail][gen] ?? HINTS[f.detail].any,
      where: 'response',
      tokenStart: range.tokenStart,
      tokenEnd: range.tokenEnd,
      charStart: f.charStart ?? null,
      charEnd: f.charEnd ?? f.charStart ?? null,
      detail: f.detail,
    };
    if (f.callIndex !== undefined) d.callIndex = f.callIndex;
    return d;
  });
}

export const vllmDivergence = defineCheck({
  stage: 'profile',
  kinds: [VLLM_DIVERGENCE],
  run: (ctx) => divergences({ run: ctx.engineRun, reference: ctx.parse, text: ctx.completionText, tokens: ctx.tokens }),
});
