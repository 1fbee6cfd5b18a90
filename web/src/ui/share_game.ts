// Share and download a finished game, from the banner, the replay and the history: its link
// (copied, or the system's share sheet where there is one), its record as JSON and as text
// (GET /api/games/<id>/record, ?format=text: one event per line, docs/server.md) and its review
// as an image (review_image.ts). Folded in a <details>, so that it costs one line where it sits.

import { t } from '../logic/i18n.ts';
import { rulesName } from '../logic/known.ts';
import { replayHash } from '../logic/route.ts';
import { api } from '../net/api.ts';
import { errorText } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import { reviewPng } from './review_image.ts';

/** The replay's full address: what a player passes on. */
export function gameUrl(id: string): string {
  const u = new URL(window.location.href);
  u.hash = replayHash(id).slice(1);
  return u.toString();
}

function save(blob: Blob, name: string): void {
  const a = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

async function reviewImage(id: string): Promise<Blob> {
  const [game, analysis] = await Promise.all([api.game(id), api.analysis(id)]);
  const names = { 1: game.players[0] ?? t('seat.light'), 2: game.players[1] ?? t('seat.dark') };
  const rules = rulesName(game.rules, game.rules);
  return reviewPng(
    analysis,
    names,
    t('share.imageTitle', { light: names[1], dark: names[2], rules }),
  );
}

export function shareGame(id: string): HTMLElement {
  const note = h('span', { class: 'hint share-note', 'aria-live': 'polite' });
  const copy = h('button', {
    type: 'button',
    'data-action': 'copy-game-link',
    text: t('share.copy'),
  });
  const share = h('button', {
    type: 'button',
    'data-action': 'share-game',
    text: t('share.share'),
  });
  const image = h('button', {
    type: 'button',
    'data-action': 'review-image',
    text: t('share.image'),
  });
  const record = `/api/games/${id}/record`;
  onClick(copy, async () => {
    try {
      await navigator.clipboard.writeText(gameUrl(id));
      setText(note, t('share.copied'));
    } catch {
      setText(note, gameUrl(id));
    }
  });
  share.hidden = typeof navigator.share !== 'function';
  onClick(share, () => {
    navigator.share({ title: t('share.title'), url: gameUrl(id) }).catch(() => {});
  });
  onClick(image, async () => {
    image.disabled = true;
    setText(note, t('share.drawing'));
    try {
      save(await reviewImage(id), `ur-${id}-review.png`);
      setText(note, '');
    } catch (e) {
      setText(note, t('share.noImage', { why: errorText(e) }));
    } finally {
      image.disabled = false;
    }
  });
  return h(
    'details',
    { class: 'share-game' },
    h('summary', { text: t('share.summary') }),
    h(
      'div',
      { class: 'row share-row' },
      copy,
      share,
      h('a', {
        class: 'button',
        href: `${record}?download=1`,
        download: `ur-${id}.json`,
        text: t('share.json'),
      }),
      h('a', {
        class: 'button',
        href: `${record}?format=text&download=1`,
        download: `ur-${id}.txt`,
        text: t('share.text'),
      }),
      image,
      note,
    ),
  );
}
