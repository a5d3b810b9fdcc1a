/** Renders a chat request into a raw prompt with a chat template, as transformers' apply_chat_template does. */
import { Template } from '@huggingface/jinja';
import type { ChatRequest } from '../trace/record.ts';
import { DEFAULT_FORMAT, getFormat } from '../formats/registry.ts';

const compiled = new Map<string, Template>();

export class TemplateError extends Error {}

/** The default format's own chat template (`ToolCallFormat.chatTemplate`): what a caller that names none renders with. */
function defaultTemplate(): string {
  const template = getFormat(DEFAULT_FORMAT).chatTemplate;
  if (!template) throw new TemplateError(`the default format (${DEFAULT_FORMAT}) declares no chat template`);
  return template.source;
}

export function renderPrompt(request: ChatRequest, template: string = defaultTemplate(), addGenerationPrompt = true): string {
  let t = compiled.get(template);
  if (!t) {
    try {
      t = new Template(template);
    } catch (err) {
      throw new TemplateError(`the chat template does not parse: ${err instanceof Error ? err.message : String(err)}`);
    }
    compiled.set(template, t);
  }
  try {
    return t.render({
      messages: request.messages ?? [],
      tools: request.tools && request.tools.length ? request.tools : null,
      add_generation_prompt: addGenerationPrompt,
      bos_token: '[BOS]',
      eos_token: '[EOS]',
    });
  } catch (err) {
    throw new TemplateError(`the chat template failed to render this request: ${err instanceof Error ? err.message : String(err)}`);
  }
}
