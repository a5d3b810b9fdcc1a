/**
 * Which tokenizer splits a completion recorded without tokens, in order: the model's tokenizer that ships with
 * Toolscope (the format's `builtin`), then the user's files for that format or model (`toolscope.tokenizer`,
 * `--tokenizer`: tiktoken.model, tokenizer.json or GGUF, read with the pre-tokenizers the format knows), then the
 * format's approximate splitter, with a note that says why (nothing set, or what was wrong with the file).
 * Asks no format for anything by name: each format's `tokenizer` capability says what it has.
 */
import type { PieceSplitter } from '../tokens/bytePairEncoder.ts';
import type { Tokenizer } from '../tokens/token.ts';
import { tokenizerFor } from './registry.ts';
import type { ToolCallFormat } from './toolCallFormat.ts';

/** Where the user's tokenizer files are: per format or model name, and one path for every record (the CLI). */
export interface TokenizerPaths {
  /** `kimi_k2`, `moonshotai/Kimi-K2-Instruct`, `Kimi-K2-Instruct` … → a model folder or a file. */
  byName?: Readonly<Record<string, string>>;
  /** For records no name matches (`--tokenizer PATH`). */
  any?: string;
}

/** What a format brings to read its models' files (the pre-tokenizers the files do not hold). */
export interface PretokenizerKnowledge {
  readonly tiktoken?: PieceSplitter;
  readonly gguf?: Readonly<Record<string, PieceSplitter>>;
}

/**
 * Reads the tokenizer at a path for a format (file I/O: the composition root hands it in, src/io/tokens); throws an
 * error that names the path and what was wrong.
 */
export type TokenizerFileReader = (path: string, formatName: string, knows: PretokenizerKnowledge) => Tokenizer;

export interface TokenizerChoice {
  tokenizer: Tokenizer;
  /** Why the tokens are approximate (`set toolscope.tokenizer`, or the file's problem); null when they are not. */
  note: string | null;
}

export const SET_TOKENIZER = 'set toolscope.tokenizer';

export function chooseTokenizer(
  format: ToolCallFormat,
  models: readonly string[],
  paths: TokenizerPaths | undefined,
  read: TokenizerFileReader | undefined,
): TokenizerChoice {
  const notes: string[] = [];
  const builtin = format.tokenizer.builtin;
  if (builtin) {
    try {
      return { tokenizer: builtin(), note: null };
    } catch (err) {
      notes.push(`the built-in tokenizer could not be loaded: ${message(err)}`);
    }
  }
  const path = pathFor(paths, format.name, models);
  if (path !== undefined && !read) {
    notes.push(`${path} was not read: this process reads no tokenizer files`);
  } else if (path !== undefined && read) {
    try {
      return { tokenizer: read(path, format.name, format.tokenizer), note: null };
    } catch (err) {
      notes.push(message(err));
    }
  } else if (!builtin) {
    notes.push(SET_TOKENIZER);
  }
  return { tokenizer: tokenizerFor(format), note: notes.join('; ') };
}

/** The format's approximate splitter after the chosen tokenizer threw on a text, with its reason as the note. */
export function approximateAfter(format: ToolCallFormat, err: unknown): TokenizerChoice {
  return { tokenizer: tokenizerFor(format), note: message(err) };
}

/** The path for a record: its model's name (whole, or after the last `/`), else its format's, else the catch-all. */
export function pathFor(paths: TokenizerPaths | undefined, formatName: string, models: readonly string[]): string | undefined {
  const byName = new Map(
    Object.entries(paths?.byName ?? {})
      .filter(([, p]) => typeof p === 'string' && p.trim() !== '')
      .map(([k, p]) => [k.toLowerCase(), p]),
  );
  for (const model of models) {
    const lower = model.toLowerCase();
    const hit = byName.get(lower) ?? byName.get(lower.slice(lower.lastIndexOf('/') + 1));
    if (hit !== undefined) return hit;
  }
  const any = paths?.any?.trim() ? paths.any : undefined;
  return byName.get(formatName) ?? any;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
