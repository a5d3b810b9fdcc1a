/**
 * guided-would-block / guided-accepts / guided-unavailable: the offline what-if as diagnostics. The structural tag of
 * the record's format (`ToolCallFormat.guided`, the shape the engines build) is compiled with web-xgrammar for the
 * request's tools and the recorded completion fed through it; the first character it would have masked becomes a
 * diagnostic on the recorded token holding it, with what the grammar allowed and what the model wrote. Where the
 * grammar and ajv disagree about a call, the keyword behind it (unenforcedKeywords.ts) is named — or the
 * disagreement is said to be unexplained. An async check: the what-if starts on the grammar engine's thread as soon
 * as the format is known, and its findings come after every other.
 */
import { walkFormats } from '../../formats/structuralTag/structuralTagFormat.ts';
import type { WhatIfOutcome } from '../../guided/engineProtocol.ts';
import { xmlArgumentUnenforced } from '../../guided/xmlArgumentGaps.ts';
import { xmlArgumentStyle } from '../../guided/argumentStyles.ts';
import type { XmlArgumentStyle } from '../../formats/structuralTag/structuralTagFormat.ts';
import { schemaKeywordGaps, type KeywordGapEffect } from '../../guided/unenforcedKeywords.ts';
import type { WhatIfRejected } from '../../guided/whatIf.ts';
import { ToolSchemas } from '../../schema/toolSchemas.ts';
import type { ChatRequest, ChatTool } from '../../trace/record.ts';
import { defineCheck, diagnosticKind } from '../check.ts';
import { tokenRange, type CheckContext, type EarlyRecord } from '../context.ts';
import type { Diagnostic, DiagnosticKindInfo } from '../diagnostic.ts';
import { tokenNumber } from '../../../shared/tokenNumbers.ts';

const GUIDED_WOULD_BLOCK = diagnosticKind({
  kind: 'guided-would-block',
  code: 'TS024',
  severity: 'warning',
  title: 'Guided decoding would have blocked this token',
});
const GUIDED_ACCEPTS = diagnosticKind({
  kind: 'guided-accepts',
  code: 'TS025',
  severity: 'info',
  title: 'Guided decoding lets this completion through',
});
const GUIDED_UNAVAILABLE = diagnosticKind({
  kind: 'guided-unavailable',
  code: 'TS027',
  severity: 'info',
  title: 'The guided-decoding what-if could not run on this request',
});

/** Why the grammar and ajv disagree on a call: the keywords of its schema known to differ in that direction. */
export function explainDisagreement(schema: unknown, effect: KeywordGapEffect, keywords: readonly string[]): string[] {
  const gaps = schemaKeywordGaps(schema as Parameters<typeof schemaKeywordGaps>[0]).filter((g) => g.gap.effect === effect);
  const matching = gaps.filter((g) => keywords.length === 0 || keywords.includes(g.gap.keyword));
  return [...new Set(matching.map((g) => `${g.gap.keyword} (${g.gap.note})`))];
}

const schemas = new ToolSchemas();

/** What of the request the what-if reads. */
type WhatIfRequest = Pick<ChatRequest, 'tools' | 'tool_choice'>;

/** The JSON-schema keywords ajv fails a call's arguments on (structural findings only). */
function ajvKeywords(tool: ChatTool, args: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return [];
  }
  const check = schemas.check(tool, value);
  return check.kind === 'findings' ? [...new Set(check.findings.filter((f) => f.severity === 'error').map((f) => f.keyword))] : [];
}

function diagnostic(entry: DiagnosticKindInfo, fields: Omit<Diagnostic, 'code' | 'kind' | 'severity'>): Diagnostic {
  return { code: entry.code, kind: entry.kind, severity: entry.severity, ...fields };
}

/**
 * The tag the what-if compiled, in words: an engine's own tag (SGLang's Mistral tag), the tag of the generation the
 * completion's markup chose, or xgrammar's built-in of the record's format.
 */
function tagName(ctx: CheckContext): string {
  const guided = ctx.format.guided;
  if (guided?.tagName) return guided.tagName;
  // The shape the completion's markup chose (startWhatIf compiled it): `xgrammar-<style>` names xgrammar's built-in.
  const shape = guided?.shapeOf?.(ctx.completionText ?? '');
  if (shape !== undefined) return shape.startsWith('xgrammar-') ? `xgrammar's ${shape.slice('xgrammar-'.length)} tag` : `the ${shape} tag`;
  return guided?.builtinStyle ? `xgrammar's ${guided.builtinStyle} tag` : "the format's structural tag";
}

/**
 * What the grammar would have stepped in on, in `detail`: the tool's name (`tool-name`), arguments the schema
 * refuses (`arguments`), the spelling of a call's header only — whitespace the tag has no room for, as in Harmony's
 * `to=functions.f <|constrain|>json` spelled as OpenAI's docs spell it (`header-spelling`) — or the markup's
 * structure (`structure`: text between calls, a missing marker, an output that cannot end there).
 */
export type Intervention = 'tool-name' | 'arguments' | 'header-spelling' | 'structure';

interface Located {
  intervention: Intervention;
  /** The call of the parse the refused character is in (its header or its arguments), if any. */
  call: { index: number; name: string; id: string } | null;
}

function locate(ctx: CheckContext, r: WhatIfRejected): Located {
  if (r.reason === 'cannot-end') return { intervention: 'structure', call: null };
  const at = r.charOffset;
  const text = ctx.completionText ?? '';
  for (const c of ctx.parse?.calls ?? []) {
    const call = { index: c.index, name: c.name, id: c.id };
    const args = c.argumentsSpan;
    if (args && at >= args.start && at <= args.end) return { intervention: 'arguments', call };
    const headerEnd = args ? args.start : c.span.end;
    if (at < c.span.start || at >= headerEnd) continue;
    if (/\s/u.test(text[at] ?? '')) return { intervention: 'header-spelling', call };
    if (at >= c.idSpan.start && at < c.idSpan.end) return { intervention: 'tool-name', call };
    return { intervention: 'structure', call };
  }
  return { intervention: 'structure', call: null };
}

function blocked(ctx: CheckContext, earlier: readonly Diagnostic[], request: WhatIfRequest, r: WhatIfRejected): Diagnostic {
  const text = ctx.completionText ?? '';
  const tokens = ctx.tokens;
  // The blocking token is the one holding the first masked character.
  const end = Math.min(text.length, r.charOffset + 1);
  const range = tokenRange(tokens, r.charOffset, end);
  const where =
    r.reason === 'cannot-end' ? 'the end of the output' : range.tokenStart === null ? 'token ?' : `token ${tokenNumber(range.tokenStart)}`;
  const wrote = r.reason === 'cannot-end' ? 'the model stopped here' : `the model wrote ${JSON.stringify(r.produced)}`;
  const tag = tagName(ctx);
  const { intervention, call } = locate(ctx, r);
  const label = call ? `call ${call.id || call.index}${call.name ? ` (${call.name})` : ''}` : '';
  let message: string;
  switch (intervention) {
    case 'header-spelling':
      message = `guided decoding (${tag}) would have stepped in at ${where} over the spelling of ${label}'s header only: it allowed ${r.allowed} and no whitespace there; ${wrote}; the tool and its arguments are not what it refuses, and a server that reads the header leniently takes the call as written`;
      break;
    case 'tool-name':
      message = `guided decoding (${tag}) would have stepped in at ${where} on the tool name of ${label}: it allowed ${r.allowed}; ${wrote}`;
      break;
    case 'arguments':
      message = `guided decoding (${tag}) would have stepped in at ${where} in the arguments of ${label}: it allowed ${r.allowed}; ${wrote}`;
      break;
    default:
      message = `guided decoding (${tag}) would have stepped in at ${where}: it allowed ${r.allowed}; ${wrote}`;
  }
  const d = diagnostic(GUIDED_WOULD_BLOCK, {
    message,
    hint:
      intervention === 'header-spelling'
        ? "Only the header's whitespace differs from the tag: under guided decoding the model would have written the same call without it. Nothing to fix in the call; a parser that insists on the tag's spelling would miss it."
        : 'Replay with guided decoding on (`toolscope replay --guided both`) to see the constrained answer; on vLLM mark the tools `strict: true`, on SGLang send the structural tag.',
    where: 'completion',
    tokenStart: range.tokenStart,
    tokenEnd: range.tokenEnd,
    charStart: r.charOffset,
    charEnd: end,
    detail: intervention,
  });
  // A difference of spelling alone is never more than a warning.
  if (intervention === 'header-spelling') d.severity = 'warning';
  if (call) d.callIndex = call.index;
  if (call && intervention === 'arguments') {
    // Blocked inside arguments ajv accepts: the grammar is stricter there (e.g. property order, extra properties).
    const ajvFound = earlier.some((x) => x.kind === 'schema-violation' && x.callIndex === call.index && x.severity === 'error');
    const known = earlier.some(
      (x) => (x.kind === 'invalid-arguments-json' || x.kind === 'unterminated-call') && x.callIndex === call.index,
    );
    if (!ajvFound && !known) {
      const tool = request.tools?.find((t) => t.function?.name === call.name);
      const why = explainDisagreement(tool?.function.parameters, 'stricter', []);
      d.message += why.length
        ? `; ajv accepts these arguments: the grammar is stricter on ${why.join(', ')}`
        : '; ajv accepts these arguments and no known keyword gap explains it (unexplained disagreement)';
    }
  }
  return d;
}

/** The XML style the record's format writes arguments in (its tag says so, not its name), if any. */
function xmlStyleOf(ctx: CheckContext, request: WhatIfRequest): XmlArgumentStyle | undefined {
  try {
    const tag = ctx.format.guided?.structuralTag(request.tools, request.tool_choice);
    if (tag === undefined) return undefined;
    for (const f of walkFormats(tag.format)) {
      const style = f.type === 'json_schema' ? xmlArgumentStyle(f.style) : undefined;
      if (style) return style;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function accepted(ctx: CheckContext, earlier: readonly Diagnostic[], request: WhatIfRequest): Diagnostic {
  let message = `guided decoding (${tagName(ctx)}) would have let this completion through unchanged`;
  // ajv errors the grammar lets through: name the keyword xgrammar does not enforce.
  const notes: string[] = [];
  // Built only for a call ajv rejects: building the tag for every accepted record cost the analysing thread more
  // than the rest of this finding.
  let xmlArguments: XmlArgumentStyle | undefined | null = null;
  for (const c of ctx.parse?.calls ?? []) {
    const found = earlier.filter((x) => x.kind === 'schema-violation' && x.callIndex === c.index && x.severity === 'error');
    if (!found.length) continue;
    const tool = request.tools?.find((t) => t.function?.name === c.name);
    if (!tool) continue;
    const keywords = ajvKeywords(tool, c.arguments);
    if (xmlArguments === null) xmlArguments = xmlStyleOf(ctx, request);
    const why = [
      ...explainDisagreement(tool.function.parameters, 'unenforced', keywords),
      ...(xmlArguments ? xmlArgumentUnenforced(xmlArguments, tool.function.parameters) : []),
    ];
    const freeValues = ctx.format.guided?.freeValues;
    notes.push(
      freeValues
        ? `ajv rejects ${c.name}'s arguments, whose values the tag does not constrain (${freeValues})`
        : why.length
          ? `ajv rejects ${c.name}'s arguments on a keyword xgrammar does not enforce: ${why.join(', ')}`
          : `ajv rejects ${c.name}'s arguments and no known keyword gap explains it (unexplained disagreement)`,
    );
  }
  if (notes.length) message += `; ${notes.join('; ')}`;
  const d = diagnostic(GUIDED_ACCEPTS, {
    message,
    hint: notes.length
      ? 'Guided decoding alone would not have fixed this call: validate the arguments server-side too.'
      : 'Nothing for guided decoding to fix in the tool-call markup of this completion.',
    where: 'completion',
    tokenStart: null,
    tokenEnd: null,
    charStart: null,
    charEnd: null,
  });
  // A schema error the grammar would have let through is worth a warning: guided decoding alone does not fix it.
  if (notes.length) d.severity = 'warning';
  return d;
}

function unavailable(why: string): Diagnostic {
  return diagnostic(GUIDED_UNAVAILABLE, {
    message: `guided-decoding what-if skipped: ${why}`,
    hint: 'A real engine refuses this request the same way when guided decoding is on (HTTP 400, or a crashed worker). Fix the tool schema; the other findings of this record do not depend on it.',
    where: 'request',
    tokenStart: null,
    tokenEnd: null,
    charStart: null,
    charEnd: null,
  });
}

/** A what-if under way, started before the record's own analysis: its findings come after. */
interface StartedWhatIf {
  run: Promise<WhatIfOutcome>;
  /** Characters of a synthetic `<think>` put before the completion (the grammar starts after `</think>`). */
  shift: number;
}

/**
 * The record sent to the grammar engine now, when its format has a structural tag, it has a raw completion and its
 * request offers tools; else null (no tag to build, nothing recorded to feed). Needs only the format and the text, so
 * the engine compiles and matches while the analysis parses and checks the record.
 */
function startWhatIf(early: EarlyRecord): StartedWhatIf | null {
  const { format, completionText, request, grammarEngine } = early;
  if (!grammarEngine || !format.guided || completionText === null || !request?.tools?.length) return null;
  if (request.tool_choice === 'none') return null;
  // Started inside reasoning (vLLM's reasoning parser): the grammar starts after the `</think>` put before it.
  const text = early.startInReasoning && !completionText.trimStart().startsWith('<think>') ? `<think>${completionText}` : completionText;
  // No tokens: the findings place the blocking character on the record's tokens themselves (blocked()).
  // The tag of the generation whose markup the completion carries, for formats with one per generation.
  const shape = format.guided.shapeOf?.(completionText);
  const options = shape === undefined ? { format: format.name } : { format: format.name, shape };
  const run = grammarEngine.whatIf(request, { text, tokens: [], finishReason: early.finishReason }, options);
  // Nobody may come for the answer (the record's own analysis can still fail): that is no unhandled rejection.
  run.catch(() => undefined);
  return { run, shift: text.length - completionText.length };
}

/** The what-if's findings for the analysed record (startWhatIf ran on the same record). */
async function guidedFindings(
  ctx: CheckContext,
  earlier: readonly Diagnostic[],
  request: WhatIfRequest,
  started: StartedWhatIf,
): Promise<Diagnostic[]> {
  const { shift } = started;
  const run = await started.run;
  // A grammar xgrammar cannot compile (or that aborted, overran or exhausted it): said, and the other findings stand.
  if (!run.ran) return run.unavailable ? [unavailable(run.why)] : [];
  const { result } = run;
  if (result.accepted) return [accepted(ctx, earlier, request)];
  // Offsets of the synthetic `<think>` prefix come off again (tokens are looked up from the offset).
  if (shift) result.charOffset = Math.max(0, result.charOffset - shift);
  return [blocked(ctx, earlier, request, result)];
}

/**
 * A record the what-if would run on but whose format no engine constrains (`noEngineGrammar`): said once, as info,
 * instead of a grammar made up for it.
 */
function noEngineGrammar(early: EarlyRecord): Diagnostic | null {
  const { format, completionText, request, grammarEngine } = early;
  if (format.guided || !format.noEngineGrammar || !grammarEngine || completionText === null || !request?.tools?.length) return null;
  if (request.tool_choice === 'none') return null;
  return diagnostic(GUIDED_UNAVAILABLE, {
    detail: 'no-engine-grammar',
    message: `guided-decoding what-if not run: Toolscope has no engine grammar for ${format.displayName} calls to compile (${format.noEngineGrammar})`,
    hint: 'Nothing to fix in the record: vLLM sends no structural tag for this format under strict tool calling; where another engine applies its own grammar, the format docs name it.',
    where: 'request',
    tokenStart: null,
    tokenEnd: null,
    charStart: null,
    charEnd: null,
  });
}

export const guidedWhatIf = defineCheck({
  stage: 'async',
  kinds: [GUIDED_WOULD_BLOCK, GUIDED_ACCEPTS, GUIDED_UNAVAILABLE],
  run: (early) => {
    const none = noEngineGrammar(early);
    if (none) return () => Promise.resolve([none]);
    const started = startWhatIf(early);
    const request = early.request;
    if (!started || !request) return null;
    return (ctx, earlier) => guidedFindings(ctx, earlier, request, started);
  },
});
