/**
 * The registry of tool-call formats. Other formats register here and nothing else changes:
 * analysis, CLI and editor look formats up by name or detect them from the text.
 */
import type { ToolCallFormat } from './toolCallFormat.ts';
import { kimiK2Format } from './kimiK2/kimiK2Format.ts';

const formats = new Map<string, ToolCallFormat>();

export function registerFormat(format: ToolCallFormat): void {
  if (formats.has(format.name)) throw new Error(`tool-call format "${format.name}" is already registered`);
  formats.set(format.name, format);
}

export function getFormat(name: string): ToolCallFormat {
  const format = formats.get(name);
  if (!format) throw new Error(`unknown tool-call format "${name}" (known: ${formatNames().join(', ')})`);
  return format;
}

export function formatNames(): string[] {
  return [...formats.keys()];
}

export const DEFAULT_FORMAT = 'kimi_k2';

/** The format whose markup the text carries; the default when none does (plain text parses the same anywhere). */
export function detectFormat(text: string): ToolCallFormat {
  for (const format of formats.values()) if (format.detect(text)) return format;
  return getFormat(DEFAULT_FORMAT);
}

registerFormat(kimiK2Format);
