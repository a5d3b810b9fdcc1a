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
