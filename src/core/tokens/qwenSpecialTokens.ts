/**
 * The special (added) tokens of the Qwen2.5 / Qwen3 vocabulary, shared by the formats whose models are Qwen's
 * (Hermes / Qwen3, Qwen3-Coder). Texts and ids are the `added_tokens_decoder` of Qwen3's tokenizer_config.json
 * (https://huggingface.co/Qwen/Qwen3-4B/blob/main/tokenizer_config.json, 151643–151668); Qwen3-Coder's is the same
 * list (https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct/blob/main/tokenizer_config.json), and Qwen2.5's
 * is its first 22 (151643–151664, https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/tokenizer_config.json).
 * Every added token counts, whatever its `special` flag: `<tool_call>` and `<think>` are flagged `special: false`
 * (so skip_special_tokens keeps them) but are single tokens outside the BPE all the same.
 */
import { specialTokenTable } from './specialTokenTable.ts';

const FIRST_ID = 151643;

/** In id order from 151643. */
const QWEN_ADDED_TOKENS: readonly string[] = [
  '<|endoftext|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|object_ref_start|>',
  '<|object_ref_end|>',
  '<|box_start|>',
  '<|box_end|>',
  '<|quad_start|>',
  '<|quad_end|>',
  '<|vision_start|>',
  '<|vision_end|>',
  '<|vision_pad|>',
  '<|image_pad|>',
  '<|video_pad|>',
  '<tool_call>',
  '</tool_call>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|fim_pad|>',
  '<|repo_name|>',
  '<|file_sep|>',
  // Qwen3 only.
  '<tool_response>',
  '</tool_response>',
  '<think>',
  '</think>',
];

export const qwenSpecialTokens = specialTokenTable(() => QWEN_ADDED_TOKENS.map((text, i) => [text, FIRST_ID + i] as const));
