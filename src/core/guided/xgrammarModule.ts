/**
 * The one place that touches `@mlc-ai/web-xgrammar` (xgrammar compiled to WASM): a small typed surface over it,
 * so the rest of Toolscope never sees the package's `any` handles or its bare-number WASM exceptions.
 *
 * Loading: the package is a UMD bundle in a `"type": "module"` package. A static import works under tsx (tests:
 * tsx hands the file to CommonJS, where the UMD wrapper finds `exports`) and in the esbuild bundles through the
 * `umdAsCommonJs` plugin in scripts/build.mjs (without it esbuild honours `"type": "module"` and the module comes out
 * empty). A dynamic `import()` would load it as real ESM and fail, so keep this import static.
 */
import * as webXgrammar from '@mlc-ai/web-xgrammar';

export interface XgGrammar {
  /** xgrammar's EBNF printout of the grammar. */
  toString(): string;
  dispose(): void;
}

export interface XgTokenizerInfo {
  getVocabSize(): number;
  dispose(): void;
}

export interface XgCompiledGrammar {
  dispose(): void;
}

export interface XgCompiler {
  compileGrammar(grammar: XgGrammar): Promise<XgCompiledGrammar>;
  dispose(): void;
}

export interface XgMatcher {
  acceptToken(tokenId: number): boolean;
  /** Accepts a whole string; on failure the matcher is left as it was before the call. */
  acceptString(text: string): boolean;
  /** Int32 words, bit i set = token i allowed next. */
  nextTokenBitmask(): Promise<Int32Array>;
  /** The longest string every continuation starts with (empty when there is a choice). */
  jumpForwardString(): string;
  isTerminated(): boolean;
  /** Undoes the last `count` accepted tokens (acceptToken steps). */
  rollBack(count: number): void;
  /** Back to the grammar's start, as a new matcher is. */
  reset(): void;
  dispose(): void;
}

/** Thrown when web-xgrammar rejects a grammar; it only gives a WASM exception pointer, so say what we sent. */
export class XgrammarError extends Error {
  constructor(
    readonly operation: string,
    readonly thrown: unknown,
  ) {
    super(
      `web-xgrammar ${operation} failed: ${
        typeof thrown === 'number' ? `WASM exception ${thrown} (the WASM build gives no message)` : String(thrown)
      }`,
    );
    this.name = 'XgrammarError';
  }
}

/**
 * web-xgrammar initialises its WASM module inside each factory call (`if (binding == null) binding = await
 * Module()`): two calls racing at start make two modules, and a Grammar from one is refused by the other
 * ("Expected null or instance of Grammar, got an instance of Grammar"). So its async factories run one at a time.
 */
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(run: () => Promise<T>): Promise<T> {
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

async function guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await serial(run);
  } catch (err) {
    throw err instanceof Error ? err : new XgrammarError(operation, err);
  }
}

export function grammarFromStructuralTag(tagJson: string): Promise<XgGrammar> {
  return guard('Grammar.fromStructuralTag', () => webXgrammar.Grammar.fromStructuralTag(tagJson));
}

export function grammarFromEBNF(ebnf: string, root: string): Promise<XgGrammar> {
  return guard('Grammar.fromEBNF', () => webXgrammar.Grammar.fromEBNF(ebnf, root));
}

/** A `byte_fallback` vocabulary: `<0xNN>` entries are single bytes, other entries are their own text. */
export function createTokenizerInfo(vocab: string[], stopTokenIds: number[]): Promise<XgTokenizerInfo> {
  return guard('TokenizerInfo.createTokenizerInfo', () =>
    webXgrammar.TokenizerInfo.createTokenizerInfo(vocab, 'byte_fallback', false, vocab.length, stopTokenIds),
  );
}

export async function createCompiler(info: XgTokenizerInfo): Promise<XgCompiler> {
  const compiler = await guard('GrammarCompiler.createGrammarCompiler', () =>
    webXgrammar.GrammarCompiler.createGrammarCompiler(info as webXgrammar.TokenizerInfo),
  );
  return {
    compileGrammar: (grammar) => guard('GrammarCompiler.compileGrammar', () => compiler.compileGrammar(grammar as webXgrammar.Grammar)),
    dispose: () => compiler.dispose(),
  };
}

/** Stop tokens must be a non-empty list: an empty one leaves the matcher unable to end. */
export async function createMatcher(compiled: XgCompiledGrammar, stopTokenIds: number[]): Promise<XgMatcher> {
  if (stopTokenIds.length === 0) throw new Error('createMatcher: stop-token list must not be empty');
  const m = await guard('GrammarMatcher.createGrammarMatcher', () =>
    webXgrammar.GrammarMatcher.createGrammarMatcher(compiled as webXgrammar.CompiledGrammar, stopTokenIds),
  );
  return {
    acceptToken: (id) => m.acceptToken(id),
    acceptString: (text) => m._acceptString(text),
    nextTokenBitmask: () => m.getNextTokenBitmask(),
    jumpForwardString: () => m.findJumpForwardString(),
    isTerminated: () => m.isTerminated(),
    rollBack: (count) => m.rollBack(count),
    reset: () => m.reset(),
    dispose: () => m.dispose(),
  };
}
