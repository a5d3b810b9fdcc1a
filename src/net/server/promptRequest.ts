/**
 * Recovers what the scripted model needs from a rendered Kimi prompt (`/v1/completions` mode): the declared
 * tools (`<|im_system|>tool_declare<|im_middle|>[…]<|im_end|>`) and the user messages.
 */
import type { ChatRequest, ChatTool } from '../../core/trace/record.ts';

export function requestFromPrompt(prompt: string): ChatRequest {
  let tools: ChatTool[] = [];
  const declare = /<\|im_system\|>tool_declare<\|im_middle\|>([\s\S]*?)<\|im_end\|>/u.exec(prompt);
  if (declare) {
    try {
      const parsed: unknown = JSON.parse(declare[1] as string);
      if (Array.isArray(parsed)) tools = parsed as ChatTool[];
    } catch {
      // A template that declares tools in another syntax: answer without tools.
    }
  }
  const messages: ChatRequest['messages'] = [];
  for (const m of prompt.matchAll(/<\|im_user\|>user<\|im_middle\|>([\s\S]*?)<\|im_end\|>/gu)) {
    messages.push({ role: 'user', content: m[1] as string });
  }
  for (const m of prompt.matchAll(/<\|tool_calls_section_begin\|>[\s\S]*?<\|tool_calls_section_end\|>/gu)) {
    // Earlier calls in the history move the next call index on.
    const count = (m[0].match(/<\|tool_call_begin\|>/gu) ?? []).length;
    messages.push({
      role: 'assistant',
      content: '',
      tool_calls: Array.from({ length: count }, () => ({ function: { name: '', arguments: '' } })),
    });
  }
  return { messages, tools };
}
