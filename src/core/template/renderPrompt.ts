/** Renders a chat request into a raw prompt with a chat template, as transformers' apply_chat_template does. */
import { Template } from '@huggingface/jinja';
import type { ChatRequest } from '../trace/record.ts';
import { KIMI_K2_DEFAULT_TEMPLATE } from '../formats/kimiK2/kimiK2DefaultTemplate.ts';

const compiled = new Map<string, Template>();

export class TemplateError extends Error {}

export function renderPrompt(request: ChatRequest, template: string = KIMI_K2_DEFAULT_TEMPLATE, addGenerationPrompt = true): string {
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
