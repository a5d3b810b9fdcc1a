/**
 * The special tokens a record's recorded tokens are recognised by (tokens/recordedTokens.ts): those of every
 * registered format's vocabulary (`tokenizer.specialTokens`; Kimi K2 alone declares one), whatever the record's
 * format. Recorded ids and texts have always been read against every table Toolscope knows; reading them against
 * the record's format alone would change which tokens of a record count as special.
 */
import type { SpecialTokens } from '../tokens/specialTokens.ts';
import { formatNames, getFormat } from './registry.ts';

/** The first registered format's table that knows a text or an id answers for it. */
export function recordedSpecialTokens(): SpecialTokens {
  const tables = formatNames().flatMap((name) => getFormat(name).tokenizer.specialTokens ?? []);
  // Every recorded token is asked, several times: one table answers directly.
  if (tables.length === 1) return tables[0] as SpecialTokens;
  const first = <T>(ask: (table: SpecialTokens) => T | undefined): T | undefined => {
    for (const table of tables) {
      const answer = ask(table);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
  return { idOf: (text) => first((t) => t.idOf(text)), textOf: (id) => first((t) => t.textOf(id)) };
}
