/**
 * The special tokens of the Llama 3.x vocabulary: the 256 ids after its 128000 BPE tokens, as Meta's own tokenizer
 * builds them (https://github.com/meta-llama/llama-models/blob/main/models/llama3/tokenizer.py: twelve named,
 * then `<|reserved_special_token_N|>` from N = 2). Llama 4's vocabulary is another (its `<|eot|>` is no id here):
 * a Llama 4 record's recorded tokens are read against Llama 3's ids, which in Llama 4 are ordinary text.
 */
import { specialTokenTable } from '../../tokens/specialTokenTable.ts';

const FIRST_ID = 128000;
const COUNT = 256;

const NAMED: readonly string[] = [
  '<|begin_of_text|>',
  '<|end_of_text|>',
  '<|reserved_special_token_0|>',
  '<|reserved_special_token_1|>',
  '<|finetune_right_pad_id|>',
  '<|step_id|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '<|eom_id|>',
  '<|eot_id|>',
  '<|python_tag|>',
  '<|image|>',
];

function* llama3Specials(): Generator<readonly [string, number]> {
  for (let i = 0; i < COUNT; i++) {
    yield [i < NAMED.length ? (NAMED[i] as string) : `<|reserved_special_token_${2 + i - NAMED.length}|>`, FIRST_ID + i];
  }
}

export const llama3SpecialTokens = specialTokenTable(llama3Specials);
