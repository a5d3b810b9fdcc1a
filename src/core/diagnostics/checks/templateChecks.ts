/**
 * Chat-template problems seen in a record's rendered prompt and request history (DESIGN §4):
 * a prompt without the generation prompt, empty content rendered as a list literal, and earlier call ids
 * not in `functions.name:idx` form (the model copies what the history shows it).
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';

const TEMPLATE_GENERATION_PROMPT_MISSING = diagnosticKind({
  kind: 'template-generation-prompt-missing',
  code: 'TS021',
  severity: 'error',
  title: 'Prompt does not end with the generation prompt',
});
const TEMPLATE_EMPTY_CONTENT_LIST = diagnosticKind({
  kind: 'template-empty-content-list',
  code: 'TS022',
  severity: 'warning',
  title: 'Empty content rendered as a list literal',
});
const TEMPLATE_BAD_HISTORY_ID = diagnosticKind({
  kind: 'template-bad-history-id',
  code: 'TS023',
  severity: 'warning',
  title: "Earlier call id not in the format's form",
});

const GENERATION_PROMPT = '<|im_assistant|>assistant<|im_middle|>';
/** The list literal as Python (vLLM's jinja2) and as JavaScript (our renderer) print it. */
const EMPTY_LIST_FORMS = ["[{'type': 'text', 'text': ''}]", '[{"type": "text", "text": ""}]', '[{"type":"text","text":""}]'];

function templateGenerationPromptMissing(ctx: CheckContext): Diagnostic[] {
  const prompt = ctx.prompt;
  if (typeof prompt !== 'string' || prompt === '') return [];
  // K2.6-style templates open the think block right after the generation prompt.
  const trimmed = prompt.endsWith('<think>') ? prompt.slice(0, -'<think>'.length) : prompt;
  if (trimmed.endsWith(GENERATION_PROMPT)) return [];
  return [
    makeDiagnostic(ctx, TEMPLATE_GENERATION_PROMPT_MISSING, {
      where: 'request',
      message: `the prompt ends with ${JSON.stringify(prompt.slice(-40))}, not with ${GENERATION_PROMPT}`,
      hint: 'The chat template was applied without add_generation_prompt: the model continues the last message instead of answering, and tool calls go missing.',
    }),
  ];
}

function templateEmptyContentList(ctx: CheckContext): Diagnostic[] {
  const prompt = ctx.prompt;
  if (typeof prompt !== 'string') return [];
  const form = EMPTY_LIST_FORMS.find((f) => prompt.includes(f));
  if (!form) return [];
  const python = form.startsWith("[{'");
  return [
    makeDiagnostic(ctx, TEMPLATE_EMPTY_CONTENT_LIST, {
      where: 'request',
      message: `empty assistant content was rendered as the literal ${form}`,
      hint: python
        ? 'vLLM turned empty content into a list of parts and the template printed the Python object. Fixed Kimi templates check for empty content; upgrade the template.'
        : "The template printed a list of content parts. (JavaScript renders the JSON form; vLLM's Python renders [{'type': 'text', 'text': ''}] — the prompt vLLM built differs here.)",
    }),
  ];
}

function templateBadHistoryId(ctx: CheckContext): Diagnostic[] {
  const messages = ctx.record.request?.messages;
  const rules = ctx.callIds;
  if (!Array.isArray(messages) || !rules) return [];
  const bad = new Set<string>();
  for (const m of messages) {
    for (const c of Array.isArray(m?.tool_calls) ? m.tool_calls : []) if (typeof c?.id === 'string' && rules.problem(c.id)) bad.add(c.id);
    if (m?.role === 'tool' && typeof m.tool_call_id === 'string' && rules.problem(m.tool_call_id)) bad.add(m.tool_call_id);
  }
  if (bad.size === 0) return [];
  const list = [...bad];
  return [
    makeDiagnostic(ctx, TEMPLATE_BAD_HISTORY_ID, {
      where: 'request',
      message: `the history carries call id${list.length === 1 ? '' : 's'} ${list
        .slice(0, 5)
        .map((x) => JSON.stringify(x))
        .join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}, not ${rules.form}`,
      hint: rules.historyHint,
    }),
  ];
}

export const templateChecks = defineCheck({
  stage: 'sync',
  kinds: [TEMPLATE_GENERATION_PROMPT_MISSING, TEMPLATE_EMPTY_CONTENT_LIST, TEMPLATE_BAD_HISTORY_ID],
  run: (ctx) => [...templateGenerationPromptMissing(ctx), ...templateEmptyContentList(ctx), ...templateBadHistoryId(ctx)],
});
