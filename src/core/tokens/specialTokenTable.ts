/**
 * A `SpecialTokens` table from a vocabulary's list of special tokens (text and id), as most formats declare theirs:
 * the list is built on first question, so a format whose records never carry tokens costs nothing at load.
 */
import type { SpecialTokens } from './specialTokens.ts';

export function specialTokenTable(entries: () => Iterable<readonly [text: string, id: number]>): SpecialTokens {
  let idByText: Map<string, number> | null = null;
  let textById: Map<number, string> | null = null;
  const build = (): void => {
    idByText = new Map();
    textById = new Map();
    for (const [text, id] of entries()) {
      idByText.set(text, id);
      // The first spelling of an id is its name (a list may give an id a second, older spelling after it).
      if (!textById.has(id)) textById.set(id, text);
    }
  };
  return {
    idOf(text) {
      if (idByText === null) build();
      return (idByText as Map<string, number>).get(text);
    },
    textOf(id) {
      if (textById === null) build();
      return (textById as Map<number, string>).get(id);
    },
  };
}

/** The table of a vocabulary Toolscope does not know: no recorded id or text is special by it. */
export const NO_SPECIAL_TOKENS: SpecialTokens = { idOf: () => undefined, textOf: () => undefined };
