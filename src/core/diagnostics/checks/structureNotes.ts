/** Helpers shared by checks that turn the parser's structure notes into diagnostics. */
import type { StructureNote, StructureNoteKind } from '../../formats/toolCallFormat.ts';
import type { CheckContext } from '../context.ts';

export function notesOf(ctx: CheckContext, kind: StructureNoteKind): StructureNote[] {
  return ctx.parse?.notes.filter((n) => n.kind === kind) ?? [];
}
