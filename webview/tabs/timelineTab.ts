/**
 * The Timeline tab, the home tab: the record's tokens as chips to step through (the record controller's timeline and stepping
 * controls, which its keys and the inspector drive), under banners that say where the tokens came from and how far
 * their boundaries can be trusted. A record without tokens shows its response and request here instead.
 */
import './timelineTab.css';
import type { RecordView } from '../../src/shared/protocol.ts';
import { clip, h, replace } from '../dom.ts';
import type { TabFactory, TabServices } from './recordTab.ts';
import { requestView } from './requestTab.ts';
import { responseView } from './responseTab.ts';

/** Quoted token text, special tokens and whitespace shown as they are (escaped by `h`). */
function tokenText(text: string | null): HTMLElement {
  return text === null ? h('em', null, 'the end of the answer') : h('code', { class: 'parting-token' }, clip(JSON.stringify(text), 80));
}

/**
 * A replay with a counterpart (guided on beside guided off): the token where the two answers part, with buttons
 * that step there in this answer and in the other one.
 */
function partingBanner(view: RecordView, goToToken: TabServices['goToToken']): HTMLElement | null {
  const p = view.comparison?.parting;
  if (!p || !view.tokens.length) return null;
  if (p.token === null)
    return h('div', { class: 'banner info parting' }, `Token for token the same answer as ${p.otherLabel} (${clip(p.otherId, 120)}).`);
  const token = p.token;
  const here = h('vscode-button', { class: 'parting-here', secondary: true }, 'Step there');
  here.addEventListener('click', () => goToToken(view.id, token));
  const there = h('vscode-button', { class: 'parting-there', secondary: true }, `Same token in ${p.otherLabel}`);
  there.addEventListener('click', () => goToToken(p.otherId, token));
  return h(
    'div',
    { class: 'banner info parting', 'data-token': String(token) },
    h(
      'span',
      { class: 'parting-text' },
      `${p.ownLabel} parts from ${p.otherLabel} at token ${token + 1}: `,
      tokenText(p.here),
      ' here, ',
      tokenText(p.there),
      ` in ${p.otherLabel}. `,
    ),
    here,
    ' ',
    there,
  );
}

function banners(view: RecordView, goToToken: TabServices['goToToken']): Array<HTMLElement | null> {
  return [
    partingBanner(view, goToToken),
    view.failed ? h('div', { class: 'banner error' }, 'The request failed: ', clip(view.failed, 1000)) : null,
    view.tokenLabel && view.tokens.length ? h('div', { class: 'token-source muted' }, clip(view.tokenLabel, 1000)) : null,
    view.tokens.length && view.approximate
      ? h(
          'div',
          { class: 'banner warn approximate-banner' },
          view.tokenOrigin === 'splitter'
            ? 'token boundaries are approximate: no recorded tokens (split by Toolscope; dashed chips)'
            : 'token boundaries are approximate where chips are dashed: some recorded tokens could not be placed exactly',
        )
      : null,
    view.rebuilt
      ? h(
          'div',
          { class: 'banner info' },
          'The engine skipped special tokens when decoding: the text was rebuilt from the recorded token ids.',
        )
      : null,
    view.tokenWarning ? h('div', { class: 'banner warn' }, clip(view.tokenWarning, 1000)) : null,
  ];
}

/** What a record without tokens shows: why there are none, then what the client received and the request. */
function withoutTokens(view: RecordView): HTMLElement[] {
  return [
    h(
      'p',
      { class: 'banner info' },
      view.tokenOrigin === 'none'
        ? 'This record holds no raw completion (no model output with its special tokens), so there are no tokens to step through. What the client received and the request follow.'
        : 'The completion is empty.',
    ),
    h('h2', null, 'Response'),
    responseView(view),
    h('h2', null, 'Request'),
    requestView(view),
  ];
}

export const timelineTab: TabFactory = ({ timeline, stepbar, goToToken }) => {
  const bannerList = h('div', { class: 'banners' });
  const timelineHost = h('div', { class: 'timeline-host' }, timeline.el);
  const noCompletion = h('div', { class: 'no-completion doc-view', tabindex: 0, hidden: true });
  const content = h('div', { class: 'timeline-panel' }, bannerList, stepbar.el, timelineHost, noCompletion);
  let hasTokens = false;
  return {
    id: 'timeline',
    label: 'Timeline',
    // The timeline itself takes the focus.
    focusablePanel: false,
    shownWhen: () => true,
    render({ view }, panel) {
      if (content.parentElement !== panel) replace(panel, content);
      replace(bannerList, view ? banners(view, goToToken) : null);
      hasTokens = Boolean(view && view.tokens.length);
      stepbar.el.hidden = !hasTokens;
      timelineHost.hidden = !hasTokens;
      noCompletion.hidden = hasTokens || !view;
      replace(noCompletion, view && !hasTokens ? withoutTokens(view) : null);
    },
    shown: () => timeline.shown(),
    focus: () => (hasTokens ? timeline.focus() : noCompletion.focus()),
  };
};
