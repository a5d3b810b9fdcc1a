/** What a streaming parser hands a client for one delta, in OpenAI's field names (re-exported by toolCallFormat.ts). */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

/** What a client receives for one delta, in OpenAI's field names. Fields are absent, never empty strings. */
export interface ParserDelta {
  content?: string;
  reasoning_content?: string;
  tool_calls?: ToolCallDelta[];
}
