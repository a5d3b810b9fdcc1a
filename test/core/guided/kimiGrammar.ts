/**
 * Kimi K2's grammar for a request, compiled as the what-if compiles it for a Kimi K2 record (its
 * `guided.structuralTag` through compileFormatGrammar), and its call markup: what most guided tests run against.
 */
import { kimiK2Format } from '../../../src/core/formats/kimiK2/kimiK2Format.ts';
import type { FormatGuidedGrammar, VocabularyMarkup } from '../../../src/core/formats/toolCallFormat.ts';
import { compileFormatGrammar, type CompiledGrammar } from '../../../src/core/guided/xgrammar.ts';
import type { ChatTool, ToolChoice } from '../../../src/core/trace/record.ts';

export const KIMI_GUIDED = kimiK2Format.guided as FormatGuidedGrammar;
export const KIMI_MARKUP = KIMI_GUIDED.markupInVocabulary as VocabularyMarkup;

export function compileKimiGrammar(
  tools: readonly ChatTool[] | undefined,
  toolChoice: ToolChoice | undefined | null,
  options: { shape?: string } = {},
): Promise<CompiledGrammar> {
  return compileFormatGrammar(KIMI_GUIDED, tools, toolChoice, options.shape);
}
