/**
 * The tabs of the record's centre, in tab-bar order: adding a tab is its module (with its stylesheet) and a line
 * here. The first is the home tab: always offered, the one a saved choice falls back to, and where the stepping keys
 * bring the reader.
 */
import { compareTab } from './compareTab.ts';
import { evalTab } from './evalTab.ts';
import type { TabFactory } from './recordTab.ts';
import { requestTab } from './requestTab.ts';
import { responseTab } from './responseTab.ts';
import { timelineTab } from './timelineTab.ts';
import { vllmTab } from './vllmTab.ts';

export const TABS: readonly TabFactory[] = [timelineTab, responseTab, requestTab, vllmTab, compareTab, evalTab];
