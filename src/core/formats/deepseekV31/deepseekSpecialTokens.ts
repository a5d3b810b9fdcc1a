/**
 * The special (added) tokens of the DeepSeek-V3.1 vocabulary, as the `added_tokens_decoder` of its
 * tokenizer_config.json lists them (https://huggingface.co/deepseek-ai/DeepSeek-V3.1/blob/main/tokenizer_config.json;
 * that file could not be read where this was written: the ids come from sources that agree on it, below): the
 * sentence tokens at 0–2, 800 slots from 128000 spelled `<｜place▁holder▁no▁N｜>` of which V3.1 names the last four
 * (search, think), and the chat and tool tokens from 128800 to 128814. The think and tool ids are those engines'
 * tests give V3.1 too (https://github.com/PaddlePaddle/FastDeploy/blob/develop/tests/entrypoints/openai/tool_parsers/test_deepseek_tool_parser.py).
 * Every added token counts, whatever its `special` flag (the tool markers are `special: false`, so
 * skip_special_tokens keeps them). Bars are U+FF5C and spaces U+2581, as in deepseekV31Markers.ts.
 */
import { specialTokenTable } from '../../tokens/specialTokenTable.ts';

const SENTENCE: readonly string[] = ['<｜begin▁of▁sentence｜>', '<｜end▁of▁sentence｜>', '<｜▁pad▁｜>'];

const PLACEHOLDERS_FROM = 128000;
/** The placeholder slots V3.1 names (V3 left them placeholders). */
const NAMED_SLOTS: readonly string[] = ['<｜search▁begin｜>', '<｜search▁end｜>', '<think>', '</think>'];
const CHAT_FROM = 128800;

/** In id order from 128800. */
const CHAT: readonly string[] = [
  '<｜fim▁hole｜>',
  '<｜fim▁begin｜>',
  '<｜fim▁end｜>',
  '<｜User｜>',
  '<｜Assistant｜>',
  '<|EOT|>',
  '<｜tool▁calls▁begin｜>',
  '<｜tool▁calls▁end｜>',
  '<｜tool▁call▁begin｜>',
  '<｜tool▁call▁end｜>',
  '<｜tool▁outputs▁begin｜>',
  '<｜tool▁outputs▁end｜>',
  '<｜tool▁output▁begin｜>',
  '<｜tool▁output▁end｜>',
  '<｜tool▁sep｜>',
];

function* deepseekSpecials(): Generator<readonly [string, number]> {
  for (const [i, text] of SENTENCE.entries()) yield [text, i];
  const named = CHAT_FROM - NAMED_SLOTS.length;
  for (let id = PLACEHOLDERS_FROM; id < CHAT_FROM; id++) {
    yield [id >= named ? (NAMED_SLOTS[id - named] as string) : `<｜place▁holder▁no▁${id - PLACEHOLDERS_FROM}｜>`, id];
  }
  for (const [i, text] of CHAT.entries()) yield [text, CHAT_FROM + i];
}

export const deepseekSpecialTokens = specialTokenTable(deepseekSpecials);
