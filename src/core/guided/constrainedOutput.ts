/** What guided decoding made of a scripted completion: the output, and how much the grammar changed. */
export interface ConstrainedOutput {
  /** The output: the untouched reasoning prefix, then the constrained text. */
  text: string;
  /** Char offset in `text` of the first character the grammar changed, or null when the script passed as is. */
  firstChange: number | null;
  /** Characters the grammar supplied (forced or chosen) and script characters it dropped. */
  forced: number;
  dropped: number;
  /** The grammar reached a valid end (false only when the length bound cut generation short). */
  complete: boolean;
}
