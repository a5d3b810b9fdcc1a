/**
 * Bare chat-completions request bodies, one a line (K2-Vendor-Verifier's sample files). The id is the 1-based
 * physical line number, as K2VV's `data_index`, so results join back to their requests.
 */
import type { ChatRequest } from '../record.ts';
import { messagesProblem, toolsProblem } from './chatShapes.ts';
import type { UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export function isChatRequestShape(value: UnknownObject): boolean {
  return Array.isArray(value.messages) && !('choices' in value);
}

/** The first message that is not `{role: string, …}` with well-typed tool calls, as a message, or null. */
export { messagesProblem } from './chatShapes.ts';

export function importChatRequest(value: UnknownObject, line: number): ImportResult {
  const messages = value.messages;
  if (!Array.isArray(messages)) return importError(line, `a chat request needs a "messages" array`);
  const problem = messagesProblem(messages, 'messages');
  if (problem !== null) return importError(line, `chat request: ${problem}`);
  if ('tools' in value) {
    const tools = toolsProblem(value.tools, 'tools');
    if (tools !== null) return importError(line, `chat request: ${tools}`);
  }
  const request = value as ChatRequest;
  return importedRecord({
    record: { toolscope: 1, id: String(line), request, meta: { endpoint: '/v1/chat/completions' } },
    line,
    lastLine: line,
    source: 'chat-request',
  });
}
