/**
 * The native trace record (`"toolscope": 1`), see docs/trace-format.md.
 * Every other shape a trace line can take is imported into this one (core/trace/importers). Plain types in the
 * protocol layer: the webview shows requests in these shapes.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface ChatToolFunction {
  name: string;
  description?: string;
  parameters?: JsonObject;
  strict?: boolean;
}

export interface ChatTool {
  type: 'function';
  function: ChatToolFunction;
}

export interface ChatToolCall {
  id?: string;
  type?: 'function';
  index?: number;
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content?: string | null | JsonValue[];
  reasoning_content?: string | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatRequest {
  model?: string;
  messages?: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: ToolChoice;
  [key: string]: unknown;
}

/** One generated token. `id` is ground truth when present; `approximate` marks text we had to infer. */
export interface RecordedToken {
  id?: number;
  text: string;
  logprob?: number;
  top?: Array<{ text: string; logprob: number; id?: number }>;
}

/** The raw model output, special tokens included. */
export interface Completion {
  text: string;
  tokens?: RecordedToken[];
  finish_reason?: string | null;
}

/** A non-streamed chat completion as the server sent it. */
export interface ChatCompletion {
  id?: string;
  object?: string;
  model?: string;
  created?: number;
  choices: Array<{
    index?: number;
    message: ChatMessage;
    finish_reason?: string | null;
    logprobs?: unknown;
  }>;
  usage?: unknown;
  [key: string]: unknown;
}

export interface ChatCompletionChunkDelta {
  role?: string;
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: string;
    function?: { name?: string; arguments?: string };
  }>;
  [key: string]: unknown;
}

export interface ChatCompletionChunk {
  id?: string;
  object?: string;
  model?: string;
  created?: number;
  choices: Array<{ index?: number; delta: ChatCompletionChunkDelta; finish_reason?: string | null; logprobs?: unknown }>;
  [key: string]: unknown;
}

/** What the server sent the client: a whole completion, or the stream's chunks in order. */
export type RecordedResponse = ChatCompletion | ChatCompletionChunk[];

export interface RecordMeta {
  source?: string;
  endpoint?: string;
  model?: string;
  guided?: boolean;
  parser?: string;
  format?: string;
  created?: string;
  replayOf?: string;
  /** Free-form extras an importer keeps (e.g. K2VV `status`, `duration_ms`). */
  [key: string]: unknown;
}

export interface TraceRecord {
  toolscope: 1;
  id: string;
  request?: ChatRequest;
  prompt?: string;
  completion?: Completion;
  response?: RecordedResponse;
  /** Error body when the request failed (K2VV `status: failed`, HTTP errors). */
  error?: string;
  meta?: RecordMeta;
}

/** The importer that recognised a line. */
export type RecordSource =
  | 'native'
  | 'chat-request'
  | 'k2vv-result'
  | 'chat-completion'
  | 'sse'
  | 'completions'
  | 'anthropic'
  | 'anthropic-stream'
  | 'openai-responses'
  | 'openai-responses-stream'
  | 'ollama'
  | 'llama.cpp'
  | 'llama.cpp-stream'
  | 'inspect-log'
  | 'otel'
  /** MiniMax-Provider-Verifier's results.jsonl: K2VV's line and its own validators' verdicts. */
  | 'minimax-result'
  /** Langfuse's exported observations (JSONL, CSV, Parquet; importers/langfuseObservation.ts). */
  | 'langfuse'
  /** LangSmith's runs (bulk export Parquet, JSONL). */
  | 'langsmith'
  /** OpenInference LLM spans (Phoenix's span export, OTLP JSON). */
  | 'openinference'
  /** The DeepSeek provider verifier's hash-chained attempts.jsonl. */
  | 'deepseek-verifier'
  /** A serving engine's error body on a line of its own (trace/importers/engineErrorBody.ts). */
  | 'error-body';

/** A record as loaded from a file: where it came from and what it became. */
export interface LoadedRecord {
  record: TraceRecord;
  /** 1-based line of the record's first line in the file. */
  line: number;
  /** 1-based last line (SSE records span several lines). */
  lastLine: number;
  source: RecordSource;
}

/** A line that could not be read: shown with its number, never fatal to the rest of the file. */
export interface LineError {
  line: number;
  message: string;
}

export function isStreamedResponse(response: RecordedResponse): response is ChatCompletionChunk[] {
  return Array.isArray(response);
}
