/**
 * Grammars derived from structural tags, kept between processes. Deriving a tag's EBNF runs xgrammar's own
 * structural-tag conversion (JSON schemas to rules) and our patches over its printout: 10–15 ms of a short run's
 * what-if, on its critical path. An agent's tool set is the same record after record and run after run, so the
 * EBNF is worth keeping; compiling it (the token masks) is not something xgrammar 0.1.27 can save. The domain only
 * reads and writes by key: whoever can keep files hands a store in (src/io/cache/derivedGrammarFiles.ts).
 */
/** What `structuralTagToEbnf` made of a tag. */
export interface DerivedGrammar {
  ebnf: string;
  root: string;
  /** `CompiledGrammar.route`. */
  route: 'patched-ebnf' | 'direct';
}

export interface DerivedGrammarStore {
  /** The grammar derived from the tag of this key by this build, if kept. */
  read(key: string): DerivedGrammar | undefined;
  /** Keeps a grammar that compiled. A store that cannot write says nothing: the next run only derives it again. */
  write(key: string, grammar: DerivedGrammar): void;
}
