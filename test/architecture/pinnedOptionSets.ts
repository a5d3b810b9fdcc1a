/** The analyze option sets the output pin holds analyze --json to (outputPin.test.ts), shared by the tests that compare runs over the same inputs. */
import type { AnalyzeCommandOptions } from '../../src/cli/analyzeCommand.ts';

export const PINNED_OPTION_SETS: Readonly<Record<string, AnalyzeCommandOptions>> = {
  default: {},
  'think-open': { startInReasoning: true },
  'recover-raw-fallback': { recoverRawFallback: true },
  'vllm-profile-C': { vllmProfile: 'C' },
  'vllm-profile-B-3-tokens': { vllmProfile: 'B', deltaTokens: 3 },
  'format-deepseek_v31': { format: 'deepseek_v31' },
  'format-hermes': { format: 'hermes' },
  'format-qwen3_coder': { format: 'qwen3_coder' },
  'format-harmony': { format: 'harmony' },
};
