/**
 * The serving-engine parser generations Toolscope replays, as the registered formats' `engineProfiles` declare them:
 * the choices of `--vllm-profile` and of the `toolscope.vllmProfile` setting.
 */
import type { VllmGeneration } from './engineRun.ts';
import { formatNames, getFormat } from './registry.ts';

/** Every generation some format's profiles replay, in the order the formats list them. */
export function engineGenerations(): VllmGeneration[] {
  return [...new Set(formatNames().flatMap((name) => getFormat(name).engineProfiles?.generations ?? []))];
}

/** The `toolscope.vllmProfile` setting's value: `off` (or unset) for none, a generation; anything else is reported. */
export function vllmProfileFromSetting(value: unknown): { profile: VllmGeneration | undefined; invalid: string | null } {
  if (value === undefined || value === null || value === '' || value === 'off') return { profile: undefined, invalid: null };
  const generation = engineGenerations().find((g) => g === value);
  if (generation !== undefined) return { profile: generation, invalid: null };
  return { profile: undefined, invalid: typeof value === 'string' ? value : JSON.stringify(value) };
}
