/**
 * On what evidence a record's format was chosen (resolveFormat.ts explains each). A file of its own so the
 * webview's protocol can name it without pulling in the formats and their tokenizers (shared: no import above it).
 */
export type FormatBasis = 'forced' | 'named' | 'markup' | 'parser' | 'model' | 'history' | 'default';
