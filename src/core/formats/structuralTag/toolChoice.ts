/**
 * What every format's structural-tag builder shares: xgrammar's `normalize_tool_choice` (the function tools a
 * request's tool_choice keeps, and the choice simplified) and how a tool's parameters become the schema xgrammar
 * compiles. Behaviour follows xgrammar 0.2.3's `builtin_structural_tag.py`, so every format refuses the same
 * requests with the same words.
 */
import type { ChatTool, JsonObject, ToolChoice } from '../../trace/record.ts';

/** The request cannot have this tag (xgrammar raises ValueError for the same cases). */
export class StructuralTagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StructuralTagError';
  }
}

export type SimplifiedChoice = 'auto' | 'required' | 'forced';

/** xgrammar's `normalize_tool_choice`: function tools kept by the choice, and the choice simplified. */
export function normalizeToolChoice(tools: readonly ChatTool[] | undefined, toolChoice: ToolChoice | undefined | null) {
  let fns = (tools ?? []).filter((t) => t.type === 'function' && typeof t.function?.name === 'string');
  let choice: SimplifiedChoice;
  if (toolChoice === undefined || toolChoice === null || toolChoice === 'auto') choice = 'auto';
  else if (toolChoice === 'none') {
    // xgrammar clears the tools and builds the tool-less auto tag (plain text).
    fns = [];
    choice = 'auto';
  } else if (toolChoice === 'required') choice = 'required';
  else if (typeof toolChoice === 'object' && toolChoice.type === 'function') {
    const name = toolChoice.function?.name;
    fns = fns.filter((t) => t.function.name === name);
    if (fns.length === 0) throw new StructuralTagError(`The tool with name '${name}' is not found in the tools list.`);
    choice = 'forced';
  } else {
    throw new StructuralTagError(`Unsupported tool_choice ${JSON.stringify(toolChoice)}.`);
  }
  if (choice === 'required' && fns.length === 0) {
    throw new StructuralTagError("The 'tools' list is empty, which is not allowed when 'tool_choice' is 'required'.");
  }
  if (choice === 'forced' && fns.length !== 1) {
    throw new StructuralTagError('Forced tool choice must resolve to exactly one tool.');
  }
  return { fns, choice };
}

/** xgrammar 0.2.3: no parameters, or `strict: false`, means any JSON (`true`), not the declared schema. */
export function xgrammarParameters(tool: ChatTool): JsonObject | boolean {
  if (tool.function.strict === false) return true;
  return tool.function.parameters ?? true;
}
