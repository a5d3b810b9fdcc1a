/**
 * Compiling a format's structural tag with web-xgrammar, the engine vLLM uses, for the offline what-if.
 *
 * web-xgrammar 0.1.27 (the only published version) cannot compile xgrammar's built-in tags as they are (an empty
 * `tags_with_separator` separator throws, a tags_with_separator inside a sequence throws, `excludes` is
 * ignored). So: lower the tag (webXgrammarLowering.ts), let web-xgrammar build the grammar, take its EBNF, patch
 * it back to the 0.2.x semantics (ebnfRules.ts) and compile that EBNF from the root found by structure. Tags that
 * need no patching (the PR-36891 shape without excludes) compile directly.
 */
import { createHash } from 'node:crypto';
import type { ChatTool, ToolChoice } from '../trace/record.ts';
import type { StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';
import type { CallHeaderReading, FormatGuidedGrammar } from '../formats/toolCallFormat.ts';
import { lowerForWebXgrammar } from './webXgrammarLowering.ts';
import { lowerXmlArgumentFormats, patchXmlArguments } from './xmlArgumentLowering.ts';
import { addExcludes, findRootRule, parseRules, printRules, removeSentinel, widenTextEnds } from './ebnfRules.ts';
import { BYTE_VOCABULARY, type ByteVocabulary } from './byteVocabulary.ts';
import { assertRegexesSupported } from './regexSupport.ts';
import { assertSchemasSupported } from './schemaSupport.ts';
import {
  createCompiler,
  createMatcher,
  createTokenizerInfo,
  grammarFromEBNF,
  grammarFromStructuralTag,
  type XgCompiledGrammar,
  type XgCompiler,
  type XgGrammar,
  type XgMatcher,
} from './xgrammarModule.ts';
import type { DerivedGrammar, DerivedGrammarStore } from './derivedGrammarStore.ts';

export interface CompiledGrammar {
  /** sha256 of the tag's JSON: the cache key (`tagKey`). */
  readonly key: string;
  readonly tag: StructuralTag;
  /** The EBNF that was compiled, and its root rule. */
  readonly ebnf: string;
  readonly root: string;
  /** `patched-ebnf` (sentinel / excludes route) or `direct`. */
  readonly route: 'patched-ebnf' | 'direct';
  readonly compileMs: number;
  /** The format's end-of-turn strings (`FormatGuidedGrammar.stops`): the what-if stops feeding there. */
  readonly stops?: readonly string[];
  /** Compiled with the format's reasoning in the tag (`FormatGuidedGrammar.reasoningInTag`): fed from the start. */
  readonly reasoningInTag?: boolean;
  /** `FormatGuidedGrammar.strippedEnds`: the end of the text may stand for one of them. */
  readonly strippedEnds?: readonly string[];
  /** `FormatGuidedGrammar.callHeader`: how the format's call header reads, for the what-if's words. */
  readonly callHeader?: CallHeaderReading;
  readonly vocabulary: ByteVocabulary;
  readonly compiled: XgCompiledGrammar;
}

/** The EBNF of a structural tag with the 0.2.x semantics, and how it was obtained. */
export async function structuralTagToEbnf(tag: StructuralTag): Promise<{ ebnf: string; root: string; route: CompiledGrammar['route'] }> {
  assertRegexesSupported(tag);
  assertSchemasSupported(tag);
  const xml = lowerXmlArgumentFormats(tag);
  const lowered = lowerForWebXgrammar(xml.tag);
  const grammar = await grammarFromStructuralTag(JSON.stringify(lowered.tag));
  try {
    const printed = grammar.toString();
    let rules = parseRules(printed);
    const root = findRootRule(rules, lowered.topType).name;
    const needsPatch =
      lowered.sentinels > 0 ||
      lowered.dispatchExcludes.length > 0 ||
      lowered.anyTextWithExcludes > 0 ||
      lowered.multiEndTexts.length > 0 ||
      xml.plans.length > 0;
    if (!needsPatch) return { ebnf: printed, root, route: 'direct' };
    rules = removeSentinel(rules, lowered.sentinels);
    rules = widenTextEnds(rules, lowered.multiEndTexts);
    rules = addExcludes(rules, lowered.dispatchExcludes, lowered.anyTextExcludes, lowered.anyTextWithExcludes);
    // After the excludes: they belong to the free text, not to the raw-text values of the XML layer.
    rules = patchXmlArguments(rules, xml.plans);
    return { ebnf: printRules(rules), root, route: 'patched-ebnf' };
  } finally {
    grammar.dispose();
  }
}

let compilerPromise: Promise<XgCompiler> | undefined;

/** One compiler for the byte vocabulary, made on first use (the WASM module initialises then). */
function compiler(): Promise<XgCompiler> {
  compilerPromise ??= createTokenizerInfo([...BYTE_VOCABULARY.entries], [...BYTE_VOCABULARY.stopIds]).then((info) => createCompiler(info));
  return compilerPromise;
}

/** Initialises the WASM module and the compiler ahead of the first grammar (the worker's start-up). */
export async function warmUpCompiler(): Promise<void> {
  await compiler();
}

/** Where grammars derived from tags are kept between processes (derivedGrammarStore.ts); none unless handed in. */
let derivedGrammars: DerivedGrammarStore | null = null;

/** Keep derived grammars in `store` (the grammar worker of a built CLI or extension), or nowhere (null). */
export function keepDerivedGrammarsIn(store: DerivedGrammarStore | null): void {
  derivedGrammars = store;
}

/**
 * The tag's grammar from the store, or derived and (once it compiled) kept. A kept grammar xgrammar refuses is
 * derived again: the store is a cache, never the reason a what-if fails.
 */
async function derivedGrammar(tag: StructuralTag, key: string): Promise<{ derived: DerivedGrammar; grammar: XgGrammar; kept: boolean }> {
  const kept = derivedGrammars?.read(key);
  if (kept) {
    try {
      return { derived: kept, grammar: await grammarFromEBNF(kept.ebnf, kept.root), kept: true };
    } catch {
      // Derived again below.
    }
  }
  const derived = await structuralTagToEbnf(tag);
  return { derived, grammar: await grammarFromEBNF(derived.ebnf, derived.root), kept: false };
}

/** Compiles a tag (not cached: use compileFormatGrammar for requests). */
export async function compileStructuralTag(tag: StructuralTag, key = tagKey(tag)): Promise<CompiledGrammar> {
  const start = performance.now();
  const { derived, grammar, kept } = await derivedGrammar(tag, key);
  const { ebnf, root, route } = derived;
  try {
    const compiled = await (await compiler()).compileGrammar(grammar);
    if (!kept) derivedGrammars?.write(key, derived);
    return {
      key,
      tag,
      ebnf,
      root,
      route,
      compileMs: performance.now() - start,
      vocabulary: BYTE_VOCABULARY,
      compiled,
    };
  } finally {
    grammar.dispose();
  }
}

/**
 * A tag's cache key: its JSON as written, not canonical JSON. The order of a schema's `properties` is the order the
 * grammar requires them in (any_order: false), so two tool schemas that differ only there are two grammars; a
 * sorted key made the second record of such a pair be judged by the first one's grammar.
 */
function tagKey(tag: StructuralTag): string {
  return createHash('sha256').update(JSON.stringify(tag)).digest('hex');
}

/** Compiled grammars by cache key, oldest first; a failed compile is not kept. */
const cache = new Map<string, Promise<CompiledGrammar>>();
const CACHE_LIMIT = 64;

/**
 * The compiled grammar of a format's own structural tag (`ToolCallFormat.guided`) for a request, cached by the tag's
 * content; a shape the format does not offer means its default. Throws StructuralTagError like the builder.
 */
export async function compileFormatGrammar(
  guided: FormatGuidedGrammar,
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  shape?: string,
): Promise<CompiledGrammar> {
  const tag = guided.structuralTag(tools, toolChoice, {
    shape: shape !== undefined && guided.shapes.includes(shape) ? shape : undefined,
    ...(guided.reasoningInTag ? { reasoning: true } : {}),
  });
  const grammar = await compileTag(tag);
  return {
    ...grammar,
    ...(guided.stops ? { stops: guided.stops } : {}),
    ...(guided.reasoningInTag ? { reasoningInTag: true } : {}),
    ...(guided.strippedEnds ? { strippedEnds: guided.strippedEnds } : {}),
    ...(guided.callHeader ? { callHeader: guided.callHeader } : {}),
  };
}

/** The compiled grammar of a tag as received (e.g. a request's own `structural_tag`), cached by its content. */
export function compileTag(tag: StructuralTag): Promise<CompiledGrammar> {
  const key = tagKey(tag);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = compileStructuralTag(tag, key);
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  if (cache.size > CACHE_LIMIT) {
    // Evicted grammars are not disposed: a what-if may still hold one; WASM memory per grammar is small.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return pending;
}

export function guidedCacheSize(): number {
  return cache.size;
}

/** A fresh matcher over a compiled grammar, stopping on the vocabulary's stop tokens. Dispose it when done. */
export function newMatcher(grammar: CompiledGrammar): Promise<XgMatcher> {
  return createMatcher(grammar.compiled, [...grammar.vocabulary.stopIds]);
}

/** One matcher kept per compiled grammar between what-ifs: reset, it is a new one without the WASM set-up. */
const spareMatchers = new WeakMap<XgCompiledGrammar, XgMatcher>();

/** A matcher at the grammar's start: the one kept (`keepMatcher`), reset, or a new one. */
export async function takeMatcher(grammar: CompiledGrammar): Promise<XgMatcher> {
  const spare = spareMatchers.get(grammar.compiled);
  if (!spare) return newMatcher(grammar);
  spareMatchers.delete(grammar.compiled);
  spare.reset();
  return spare;
}

/** Keeps a matcher of `takeMatcher` for the grammar's next run (one at most; another is disposed). */
export function keepMatcher(grammar: CompiledGrammar, matcher: XgMatcher): void {
  if (spareMatchers.has(grammar.compiled)) matcher.dispose();
  else spareMatchers.set(grammar.compiled, matcher);
}

/**
 * Whether the grammar accepts `text` as a whole output (then a stop token), or as a prefix when
 * `complete: false`. Special-token strings are ordinary text to xgrammar, so this is exact at the text level.
 */
export async function grammarAccepts(grammar: CompiledGrammar, text: string, options: { complete?: boolean } = {}): Promise<boolean> {
  const matcher = await newMatcher(grammar);
  try {
    if (text.length > 0 && !matcher.acceptString(text)) return false;
    if (options.complete === false) return true;
    return matcher.acceptToken(grammar.vocabulary.stopIds[0] as number);
  } finally {
    matcher.dispose();
  }
}
