// "How to play" from the table: the rules page in an overlay over the table, so that a player
// reads them without leaving a game whose clock runs. Escape, Close or a click beside it closes.

import { t } from '../logic/i18n.ts';
import type { App, View } from './app.ts';
import { h, onClick } from './dom.ts';
import { mountHowto } from './howto.ts';

export function openHowto(app: App, preset: string, opener: HTMLElement): void {
  const close = h('button', {
    type: 'button',
    'data-action': 'close-howto',
    text: t('howto.close'),
  });
  const body = h('div', { class: 'howto-overlay-body' });
  const dialog = h(
    'div',
    {
      class: 'howto-overlay card',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-label': t('table.howto'),
    },
    h('div', { class: 'row howto-overlay-bar' }, close),
    body,
  );
  const host = h('div', { class: 'settings-host howto-overlay-host' }, dialog);
  let view: View | null = mountHowto(app, body, { name: 'howto', preset });
  const done = () => {
    view?.destroy();
    view = null;
    host.remove();
    window.removeEventListener('hashchange', done);
    opener.focus();
  };
  onClick(close, done);
  onClick(host, (e) => e.target === host && done());
  host.addEventListener('keydown', (e) => e.key === 'Escape' && done());
  // A link inside (another rule set, Play) leaves the table: the overlay goes with it.
  window.addEventListener('hashchange', done);
  document.body.append(host);
  close.focus();
}
