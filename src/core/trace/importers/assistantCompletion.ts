/**
 * The native response every non-OpenAI shape maps to: a `chat.completion` with one assistant choice. The importers
 * (Anthropic, Responses, Ollama) differ in where they find the text, the reasoning and the calls, not in this.
 */
import type { ChatCompletion, ChatToolCall } from '../record.ts';

export interface AssistantTurn {
  id: string;
  model?: unknown;
  role?: string;
  content: string | null;
  reasoning: string | null;
  calls: ChatToolCall[];
  finishReason: string | null;
  usage?: unknown;
}

export function assistantCompletion(turn: AssistantTurn): ChatCompletion {
  return {
    id: turn.id,
    object: 'chat.completion',
    ...(typeof turn.model === 'string' ? { model: turn.model } : {}),
    choices: [
      {
        index: 0,
        message: {
          role: turn.role ?? 'assistant',
          content: turn.content,
          ...(turn.reasoning !== null ? { reasoning_content: turn.reasoning } : {}),
          ...(turn.calls.length > 0 ? { tool_calls: turn.calls } : {}),
        },
        finish_reason: turn.finishReason,
      },
    ],
    ...(turn.usage !== undefined ? { usage: turn.usage } : {}),
  };
}
