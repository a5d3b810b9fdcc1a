/**
 * The XML argument styles the registered formats declare (`FormatGuidedGrammar.argumentStyle`), by name: a tag's
 * `json_schema` of such a style is lowered, hinted and explained by what its format declared, never by a style
 * name written here.
 */
import { formatNames, getFormat } from '../formats/registry.ts';
import type { XmlArgumentStyle } from '../formats/structuralTag/structuralTagFormat.ts';

/** The XML style of that name (the first format declaring it), or undefined for `json`, none, or an unknown style. */
export function xmlArgumentStyle(style: string | undefined): XmlArgumentStyle | undefined {
  if (style === undefined || style === 'json') return undefined;
  for (const name of formatNames()) {
    const declared = getFormat(name).guided?.argumentStyle;
    if (declared?.style === style) return declared;
  }
  return undefined;
}
