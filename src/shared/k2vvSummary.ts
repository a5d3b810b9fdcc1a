/** K2-Vendor-Verifier's summary fields (its summary JSON), plus schema accuracy. No imports: the webview shares it. */
export interface K2vvSummary {
  model: string | null;
  success_count: number;
  failure_count: number;
  finish_stop: number;
  finish_tool_calls: number;
  finish_others: number;
  finish_others_detail: Record<string, number>;
  schema_validation_error_count: number;
  successful_tool_call_count: number;
  schema_accuracy: number | null;
}
