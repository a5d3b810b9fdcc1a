/**
 * What the analysis is handed in a Node process (AnalysisServices): tokenizer files read from disk and the grammar
 * engine on its worker thread, one per process. The composition roots (CLI, extension host, servers) pass it in.
 */
import type { AnalysisServices } from '../core/analysis.ts';
import { guidedEngine } from './guided/guidedEnginePool.ts';
import { loadLocalTokenizer } from './tokens/localTokenizer.ts';

export function nodeServices(): Required<AnalysisServices> {
  return { readTokenizer: loadLocalTokenizer, grammarEngine: guidedEngine() };
}
