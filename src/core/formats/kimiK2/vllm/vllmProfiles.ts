/** The vLLM-behaviour profiles by generation. */
import { vllmGenA } from './vllmGenA.ts';
import { vllmGenB } from './vllmGenB.ts';
import { vllmGenC } from './vllmGenC.ts';
import type { VllmGeneration, VllmProfile } from './vllmProfile.ts';

export const VLLM_PROFILES: Readonly<Record<VllmGeneration, VllmProfile>> = { A: vllmGenA, B: vllmGenB, C: vllmGenC };

export const VLLM_GENERATIONS: readonly VllmGeneration[] = ['A', 'B', 'C'];

export function vllmProfile(generation: VllmGeneration): VllmProfile {
  return VLLM_PROFILES[generation];
}

export function isVllmGeneration(name: string): name is VllmGeneration {
  return name === 'A' || name === 'B' || name === 'C';
}

/** The `toolscope.vllmProfile` setting's value: `off` (or unset) for none, `A`/`B`/`C`; anything else is reported. */
export function vllmProfileFromSetting(value: unknown): { profile: VllmGeneration | undefined; invalid: string | null } {
  if (value === undefined || value === null || value === '' || value === 'off') return { profile: undefined, invalid: null };
  if (typeof value === 'string' && isVllmGeneration(value)) return { profile: value, invalid: null };
  return { profile: undefined, invalid: typeof value === 'string' ? value : JSON.stringify(value) };
}
