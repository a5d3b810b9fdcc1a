/**
 * The offline what-if: would guided decoding have let this completion through? The recorded completion is fed
 * through a GrammarMatcher over the byte vocabulary (special-token strings as single tokens); the first rejected
 * character is mapped to its completion offset and recorded token, with what the grammar allowed there.
 *
 * Semantics (docs/guided-decoding.md): matching is by text, as xgrammar does with the real vocabulary, so the
 * verdict is the same as long as the model's tokens spell the same text; it cannot say which of the model's
 * token ids the mask would have kept. Reasoning (`<think>…</think>`) is skipped by default, as vLLM only applies the
 * grammar after its reasoning parser saw the end of reasoning.
 */
import type { Token } from '../tokens/token.ts';
import type { ChatRequest } from '../trace/record.ts';
import { SPECIAL_TEXTS_BY_LENGTH, STOP_TEXTS } from './byteVocabulary.ts';
import { SPECIAL_SPLIT, stopOffset } from './completionPieces.ts';
import { describeAllowed, readBitmask, type AllowedNext } from './allowedNext.ts';
import { feedInBulk } from './bulkFeed.ts';
import { feedMarkupOnly, MARKUP_FEED_MIN_CHARS, markupPlan } from './markupFeed.ts';
import { jsonPrefixContext } from './jsonPrefixContext.ts';
import { schemaHintAt } from './schemaHint.ts';
import { tagExcludes, tagTools } from './tagTools.ts';
import { walkFormats, type StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';
import { compileFormatGrammar, keepMatcher, newMatcher, takeMatcher, type CompiledGrammar } from './xgrammar.ts';
import { findFormat } from '../formats/registry.ts';
import { StructuralTagError } from '../formats/structuralTag/toolChoice.ts';
import { XgrammarError, type XgMatcher } from './xgrammarModule.ts';
import { UnsupportedSchemaError } from './schemaSupport.ts';
import { UnsupportedRegexError } from './regexSupport.ts';
import { tokenAt } from './tokenAt.ts';
import { callTagHint } from './callTagHint.ts';

export { tokenAt } from './tokenAt.ts';

export interface WhatIfCompletion {
  /** The raw completion, special tokens included. */
  text: string;
  /** Its tokens (src/core/tokens), anchored to `text` by char offsets. */
  tokens: readonly Token[];
  /** `length` (truncated): the end of the text is not required to be a valid end. */
  finishReason?: string | null;
}

export interface WhatIfOptions {
  /** `skip` (default): constrain only what follows the first `</think>`; `constrain`: from the first char. */
  reasoning?: 'skip' | 'constrain';
  /** The request's tool names, for what-the-grammar-allowed hints in a call's begin (callTagHint.ts). */
  toolNames?: readonly string[];
  /**
   * `markup`: where the tag allows it (markupFeed.ts), free text between tags is scanned, not fed; `whole`: every
   * character goes through the matcher. Both give the same result. By default `markup` from MARKUP_FEED_MIN_CHARS on.
   */
  feed?: 'markup' | 'whole';
}

/** A what-if of a request: the registered format whose structural tag (`ToolCallFormat.guided`) is compiled, in a shape. */
export interface WhatIfRequestOptions extends WhatIfOptions {
  format: string;
  /** One of the format's `shapes`; its default when absent or not one of them. */
  shape?: string;
}

export interface WhatIfAccepted {
  accepted: true;
  /** Char offset where the grammar started (after reasoning). */
  grammarStart: number;
  /** Whether the end of the output was checked (not for truncated completions or unfinished reasoning). */
  endChecked: boolean;
}

export interface WhatIfRejected {
  accepted: false;
  /** First character the grammar would have masked (the text length when the output could not end there). */
  charOffset: number;
  /** `index` of the recorded token holding that character (-1 without tokens). */
  tokenIndex: number;
  /** What was allowed there, in words. */
  allowed: string;
  /** What the model wrote there (short excerpt; empty at the end of the output). */
  produced: string;
  /** `rejected`: a character was masked; `excluded`: a string the tag forbids in free text; `cannot-end`. */
  reason: 'rejected' | 'excluded' | 'cannot-end';
  /** The allowed set behind `allowed`. */
  next: AllowedNext;
  grammarStart: number;
}

export type WhatIfResult = WhatIfAccepted | WhatIfRejected;

const TRUNCATED = new Set(['length', 'max_tokens']);

/** The think block vLLM's reasoning parsers strip before the grammar applies, in every format that reasons in one. */
const THINK_BEGIN = '<think>';
const THINK_END = '</think>';

function excerpt(text: string, offset: number): string {
  const rest = text.slice(offset);
  const special = SPECIAL_TEXTS_BY_LENGTH.find((s) => rest.startsWith(s)) ?? STOP_TEXTS.find((s) => rest.startsWith(s));
  if (special) return special;
  const m = SPECIAL_SPLIT.exec(rest);
  const limit = Math.min(32, m ? m.index : rest.length);
  return rest.length > limit ? `${rest.slice(0, limit)}…` : rest;
}

/**
 * Words for the position in a call of a format that declares how its call header reads (`guided.callHeader`): the
 * tool names in the header, the schema fragment in the arguments.
 */
function contextHint(grammar: CompiledGrammar, text: string, grammarStart: number, offset: number): string | undefined {
  const reading = grammar.callHeader;
  if (!reading) return undefined;
  const { callBegin, argumentsBegin, callEnd } = reading;
  const begin = text.lastIndexOf(callBegin, offset - 1);
  if (begin < grammarStart || begin + callBegin.length > offset) return undefined;
  const end = text.indexOf(callEnd, begin);
  if (end >= 0 && end < offset) return undefined;
  const headerStart = begin + callBegin.length;
  const tools = tagTools(grammar.tag, reading.toolOfTag);
  const names = tools.map((t) => t.name).join(', ');
  const arg = text.indexOf(argumentsBegin, headerStart);
  if (arg >= 0 && arg + argumentsBegin.length <= offset) {
    const name = reading.toolOf(text.slice(headerStart, arg));
    const tool = tools.find((t) => t.name === name);
    if (!tool) return undefined;
    return schemaHintAt(tool.schema, jsonPrefixContext(text.slice(arg + argumentsBegin.length, offset)));
  }
  return reading.hint(text.slice(headerStart, offset), tools.length === 1 ? names : `one of ${names}`);
}

/** Free text where an excluded string was written: what the tag lets through instead. */
function excludedHint(grammar: CompiledGrammar, excludes: ReadonlySet<string>): string {
  const triggers = new Set<string>();
  for (const f of walkFormats(grammar.tag.format)) if (f.type === 'triggered_tags') for (const t of f.triggers) triggers.add(t);
  const list = (xs: Iterable<string>) => [...xs].map((x) => JSON.stringify(x)).join(', ');
  const text = `free text without ${list(excludes)}`;
  return triggers.size ? `${text}; tool calls start with ${list(triggers)}` : text;
}

/**
 * The output may end here once a stripped end-of-turn token is put back (a server returns Harmony text without its
 * final `<|return|>` or `<|call|>`). A refused string changes nothing, so they are tried in turn.
 */
function endsAtStrippedEnd(matcher: XgMatcher, grammar: CompiledGrammar): boolean {
  for (const end of grammar.strippedEnds ?? []) {
    if (matcher.acceptString(end)) return matcher.acceptToken(grammar.vocabulary.stopIds[0] as number);
  }
  return false;
}

/** Where the grammar starts, or null when the whole completion is unfinished reasoning. */
export function grammarStartOf(text: string, reasoning: 'skip' | 'constrain'): number | null {
  if (reasoning === 'constrain') return 0;
  const end = text.indexOf(THINK_END);
  if (end >= 0) return end + THINK_END.length;
  return text.trimStart().startsWith(THINK_BEGIN) ? null : 0;
}

/** Runs a recorded completion through a compiled grammar. */
export async function whatIf(grammar: CompiledGrammar, completion: WhatIfCompletion, options: WhatIfOptions = {}): Promise<WhatIfResult> {
  const { text, tokens } = completion;
  const start = grammar.reasoningInTag ? 0 : grammarStartOf(text, options.reasoning ?? 'skip');
  if (start === null) return { accepted: true, grammarStart: text.length, endChecked: false };
  // A stop token in the text is where the model stopped; nothing after it reaches the grammar.
  const stopAt = stopOffset(text, start, grammar.stops);
  const textEnd = stopAt >= 0 ? stopAt : text.length;
  const checkEnd = stopAt >= 0 || !TRUNCATED.has(completion.finishReason ?? '');
  const excludes = excludesOf(grammar.tag);

  const matcher = await takeMatcher(grammar);
  // Kept for the grammar's next what-if unless something threw (xgrammar may have aborted mid-way).
  let threw = false;
  try {
    const feed = options.feed ?? (textEnd - start >= MARKUP_FEED_MIN_CHARS ? 'markup' : 'whole');
    const plan = feed === 'whole' ? null : markupPlan(grammar.tag);
    const outcome = plan
      ? await feedMarkupOnly(matcher, grammar.vocabulary, excludes, plan, text, start, textEnd)
      : await feedInBulk(matcher, grammar.vocabulary, excludes, text, start, textEnd);
    let offset: number;
    let reason: WhatIfRejected['reason'];
    let at: XgMatcher = matcher;
    let fresh: XgMatcher | undefined;
    if (!outcome.ok) {
      offset = outcome.offset;
      reason = outcome.excluded ? 'excluded' : 'rejected';
      if (outcome.excluded) {
        // The matcher is past the excluded string: rebuild the state before it to say what was allowed there.
        fresh = await newMatcher(grammar);
        await feedInBulk(fresh, grammar.vocabulary, new Set(), text, start, offset);
        at = fresh;
      }
    } else {
      if (!checkEnd || matcher.acceptToken(grammar.vocabulary.stopIds[0] as number) || endsAtStrippedEnd(matcher, grammar)) {
        return { accepted: true, grammarStart: start, endChecked: checkEnd };
      }
      offset = textEnd;
      reason = 'cannot-end';
    }
    try {
      const next = readBitmask(await at.nextTokenBitmask(), grammar.vocabulary, at.jumpForwardString());
      const hint =
        reason === 'excluded'
          ? undefined
          : (contextHint(grammar, text, start, offset) ?? callTagHint(grammar.tag, options.toolNames ?? [], text, start, offset));
      const allowed = reason === 'excluded' ? excludedHint(grammar, excludes) : (hint ?? describeAllowed(next));
      return {
        accepted: false,
        charOffset: offset,
        tokenIndex: tokenAt(tokens, Math.min(offset, Math.max(0, text.length - 1))),
        allowed,
        produced: reason === 'cannot-end' ? '' : excerpt(text, offset),
        reason,
        next,
        grammarStart: start,
      };
    } finally {
      fresh?.dispose();
    }
  } catch (err) {
    threw = true;
    throw err;
  } finally {
    if (threw) matcher.dispose();
    else keepMatcher(grammar, matcher);
  }
}

const excludesByTag = new WeakMap<StructuralTag, ReadonlySet<string>>();

/** `tagExcludes` of a compiled grammar's tag, worked out once per tag (a cached grammar's tag is one object). */
function excludesOf(tag: StructuralTag): ReadonlySet<string> {
  let excludes = excludesByTag.get(tag);
  if (!excludes) excludesByTag.set(tag, (excludes = tagExcludes(tag)));
  return excludes;
}

export type WhatIfForRequest =
  | { ran: true; result: WhatIfResult; grammar: CompiledGrammar }
  /** `unavailable`: xgrammar cannot compile the request's grammar (why says what); else there is no tag to build. */
  | { ran: false; why: string; unavailable: boolean };

/** A request's grammar and the tool names the what-if's words use. */
interface RequestGrammar {
  grammar: CompiledGrammar;
  toolNames: string[];
}

/**
 * The request's compiled grammar (its tag of the format in the shape asked for, cached by the tag's content), or why
 * there is none.
 */
async function requestGrammar(
  request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
  options: WhatIfRequestOptions,
): Promise<RequestGrammar | Extract<WhatIfForRequest, { ran: false }>> {
  const format = findFormat(options.format);
  const guided = format?.guided;
  if (!guided)
    return { ran: false, why: format?.noEngineGrammar ?? `the ${options.format} format has no structural tag`, unavailable: false };
  let grammar: CompiledGrammar;
  try {
    grammar = await compileFormatGrammar(guided, request.tools, request.tool_choice, options.shape);
  } catch (err) {
    // No tag for this request in this shape; or a schema the engine would have refused outright.
    if (err instanceof StructuralTagError) return { ran: false, why: err.message, unavailable: false };
    if (err instanceof UnsupportedRegexError || err instanceof UnsupportedSchemaError || err instanceof XgrammarError) {
      return { ran: false, why: err.message, unavailable: true };
    }
    throw err;
  }
  const toolNames = (request.tools ?? []).map((t) => t?.function?.name).filter((n): n is string => typeof n === 'string');
  return { grammar, toolNames };
}

/** Builds (cached) the request's tag of the format in the shape asked for and runs the completion through it. */
export async function whatIfForRequest(
  request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
  completion: WhatIfCompletion,
  options: WhatIfRequestOptions,
): Promise<WhatIfForRequest> {
  const found = await requestGrammar(request, options);
  if (!('grammar' in found)) return found;
  return { ran: true, result: await whatIf(found.grammar, completion, { ...options, toolNames: found.toolNames }), grammar: found.grammar };
}

/**
 * Grammars of requests already seen, by format and shape, then by the request's JSON: a record whose tools were seen
 * before finds its grammar without building the tag, printing it and hashing it (most of a short record's what-if).
 * Only grammars: a request without one is worked out again, as whatIfForRequest does. The request's JSON is the key
 * as it came: a key made of it with the format and shape (a new string of ~700 characters per record, copied and
 * hashed at each look-up) cost 7 % of a bench-corpus record's what-if.
 */
const byRequestJson = new Map<string, Map<string, RequestGrammar>>();
let requestGrammars = 0;
const BY_REQUEST_JSON_LIMIT = 64;

function grammarsOf(options: Pick<WhatIfRequestOptions, 'format' | 'shape'>): Map<string, RequestGrammar> {
  const key = options.shape === undefined ? options.format : `${options.format}\u0000${options.shape}`;
  let grammars = byRequestJson.get(key);
  if (!grammars) byRequestJson.set(key, (grammars = new Map()));
  return grammars;
}

/** Whether `whatIfForRequestJson` has this request's grammar at hand (its what-if then compiles nothing). */
export function hasRequestGrammar(requestJson: string, options: Pick<WhatIfRequestOptions, 'format' | 'shape'>): boolean {
  return grammarsOf(options).has(requestJson);
}

/** A grammar dropped: the least recently used of the first format and shape that holds any (the limit is over all). */
function dropOldestGrammar(): void {
  for (const grammars of byRequestJson.values()) {
    const oldest = grammars.keys().next();
    if (oldest.done) continue;
    grammars.delete(oldest.value);
    requestGrammars--;
    return;
  }
}

/**
 * `whatIfForRequest` of a request given as the JSON of its `tools` and `tool_choice` (how the grammar-engine worker
 * is sent it: a string copies to a thread several times faster than the objects), parsed only when its grammar is
 * not cached.
 */
export async function whatIfForRequestJson(
  requestJson: string,
  completion: WhatIfCompletion,
  options: WhatIfRequestOptions,
): Promise<WhatIfForRequest> {
  const grammars = grammarsOf(options);
  let found = grammars.get(requestJson);
  if (found) {
    // Most recently used last.
    if (grammars.size > 1) {
      grammars.delete(requestJson);
      grammars.set(requestJson, found);
    }
  } else {
    const request = JSON.parse(requestJson) as { tools?: ChatRequest['tools']; tool_choice?: ChatRequest['tool_choice'] | null };
    const made = await requestGrammar({ tools: request.tools, tool_choice: request.tool_choice ?? undefined }, options);
    if (!('grammar' in made)) return made;
    found = made;
    if (requestGrammars >= BY_REQUEST_JSON_LIMIT) dropOldestGrammar();
    // Looked up again: another what-if may have put it there while this one compiled.
    if (!grammars.has(requestJson)) requestGrammars++;
    grammars.delete(requestJson);
    grammars.set(requestJson, found);
  }
  const { grammar, toolNames } = found;
  return { ran: true, result: await whatIf(grammar, completion, { ...options, toolNames }), grammar };
}
