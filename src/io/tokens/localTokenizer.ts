/**
 * Reads a model's tokenizer from the path a user gave (`toolscope.tokenizer`, `--tokenizer`): a model folder (a
 * Hugging Face snapshot as downloaded: tiktoken.model + tokenizer_config.json, or tokenizer.json; or a folder with
 * one .gguf), or one file (tokenizer.json, tiktoken.model, a GGUF file such as an Ollama blob, which has no
 * extension). Errors name the path and what was expected; loaded tokenizers are kept per path and format.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { PretokenizerKnowledge, TokenizerFileReader } from '../../core/formats/tokenizerChoice.ts';
import { tokenizerFromMetadata } from '../../core/tokens/ggufTokenizer.ts';
import { isGgufFile, readGgufHeader } from './ggufHeader.ts';
import { tiktokenTokenizer } from '../../core/tokens/tiktokenFile.ts';
import { TokenizerJson } from '../../core/tokens/tokenizerJson.ts';
import type { Tokenizer } from '../../core/tokens/token.ts';
import { readTokenizerText } from './tokenizerFile.ts';
import { patternDeadline } from './patternDeadline.ts';

const cache = new Map<string, Tokenizer | Error>();

/** Forget loaded tokenizers (the setting changed, or the files did). */
export function clearLocalTokenizers(): void {
  cache.clear();
}

/** The tokenizer at `path` for a format (cached, errors too: a broken file is reported, not re-read per record). */
export const loadLocalTokenizer: TokenizerFileReader = (path, formatName, knows) => {
  const full = resolve(path);
  const key = `${formatName}\u0000${full}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    try {
      entry = readTokenizer(full, knows);
    } catch (err) {
      entry = err instanceof Error ? err : new Error(String(err));
    }
    cache.set(key, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
};

function readTokenizer(path: string, knows: PretokenizerKnowledge): Tokenizer {
  if (!existsSync(path)) throw new Error(`no tokenizer at ${path}: the path does not exist`);
  if (statSync(path).isDirectory()) {
    if (existsSync(join(path, 'tiktoken.model'))) return fromTiktoken(join(path, 'tiktoken.model'), knows);
    if (existsSync(join(path, 'tokenizer.json'))) return fromTokenizerJson(join(path, 'tokenizer.json'));
    const ggufs = readdirSync(path).filter((f) => f.toLowerCase().endsWith('.gguf'));
    if (ggufs.length === 1) return fromGguf(join(path, ggufs[0] as string), knows);
    if (ggufs.length > 1) throw new Error(`${path} holds ${ggufs.length} .gguf files: name one of them`);
    throw new Error(`${path} holds no tokenizer: expected tiktoken.model (with tokenizer_config.json), tokenizer.json or a .gguf file`);
  }
  const name = basename(path).toLowerCase();
  if (name.endsWith('.json')) return fromTokenizerJson(path);
  if (name.endsWith('.model') || name.endsWith('.tiktoken')) return fromTiktoken(path, knows);
  if (isGgufFile(path)) return fromGguf(path, knows);
  throw new Error(`${path} is not a tokenizer Toolscope reads: expected tokenizer.json, tiktoken.model or a GGUF file`);
}

function readJson(path: string): unknown {
  const text = readTokenizerText(path);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** The model folder's name: what the header shows after the file kind. */
function modelName(file: string): string {
  return basename(dirname(file));
}

function fromTiktoken(file: string, knows: PretokenizerKnowledge): Tokenizer {
  if (!knows.tiktoken)
    throw new Error(`${file}: a tiktoken.model holds no pre-tokenizer pattern, and Toolscope knows none for this format`);
  const configPath = join(dirname(file), 'tokenizer_config.json');
  const config = existsSync(configPath) ? { json: readJson(configPath), label: configPath } : null;
  return tiktokenTokenizer(`tiktoken.model (${modelName(file)})`, { text: readTokenizerText(file), label: file }, config, knows.tiktoken);
}

function fromTokenizerJson(file: string): Tokenizer {
  const configPath = join(dirname(file), 'tokenizer_config.json');
  const config = existsSync(configPath) && configPath !== file ? readJson(configPath) : {};
  // Its patterns are the file's own: each encoding runs against the clock.
  return new TokenizerJson(`tokenizer.json (${modelName(file)})`, readJson(file), config, file, patternDeadline());
}

function fromGguf(file: string, knows: PretokenizerKnowledge): Tokenizer {
  const { metadata } = readGgufHeader(file, (key) => key.startsWith('tokenizer.ggml.'));
  return tokenizerFromMetadata(metadata, file, `GGUF (${basename(file)})`, knows.gguf);
}
