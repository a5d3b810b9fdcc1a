/** Helpers shared by checks that turn the parser's structure notes into diagnostics. */
import type { StructureNote, StructureNoteKind } from '../../formats/toolCallFormat.ts';
import type { CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';

// Loops pushing onto array literals, not filter and map: checks built on these were deoptimised (util/mapped.ts).

/** The parser's notes of `kind`, in order. */
export function notesOf(ctx: CheckContext, kind: StructureNoteKind): StructureNote[] {
  const out: StructureNote[] = [];
  const notes = ctx.parse?.notes;
  if (!notes) return out;
  for (let i = 0; i < notes.length; i++) {
    const n = notes[i] as StructureNote;
    if (n.kind === kind) out.push(n);
  }
  return out;
}

/** The findings `make` writes for `items`, in order (null: none for that item), pushed onto `into`. */
export function findingsOf<T>(items: readonly T[], make: (item: T) => Diagnostic | null, into: Diagnostic[] = []): Diagnostic[] {
  for (let i = 0; i < items.length; i++) {
    const d = make(items[i] as T);
    if (d) into.push(d);
  }
  return into;
}
