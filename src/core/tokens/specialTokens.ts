/**
 * A vocabulary's special tokens by text and by id, as a format declares them (`FormatTokenizer.specialTokens`):
 * what recorded tokens are recognised as special by (recordedTokens.ts), whether they carry an id, a text or both.
 */
export interface SpecialTokens {
  /** The id of a special token's string, or undefined when the string is not one special token. */
  idOf(text: string): number | undefined;
  /** The string of a special id (its name, or the vocabulary's spelling of a reserved one); undefined for an ordinary id. */
  textOf(id: number): string | undefined;
}
