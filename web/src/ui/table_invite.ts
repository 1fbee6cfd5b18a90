// The waiting table's invite: the link, "Copy link" and, where the browser has a share sheet
// (phones mostly), "Share". Shown to the table's owner until the second seat is taken.

import { t } from '../logic/i18n.ts';
import { h, onClick } from './dom.ts';

export function inviteBox(toast: (text: string, tone: 'info' | 'good') => void) {
  const input = h('input', {
    readonly: true,
    'aria-label': t('invite.label'),
    class: 'invite-link',
  });
  const copy = h('button', {
    type: 'button',
    'data-action': 'copy-invite',
    text: t('invite.copy'),
  });
  const share = h('button', {
    type: 'button',
    'data-action': 'share-invite',
    text: t('invite.share'),
  });
  onClick(copy, async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast(t('invite.copied'), 'good');
    } catch {
      toast(t('invite.copyByHand'), 'info');
    }
  });
  share.hidden = typeof navigator.share !== 'function';
  onClick(share, () => {
    const data = { title: t('invite.shareTitle'), text: t('invite.shareText'), url: input.value };
    navigator.share(data).catch(() => {
      /* the player closed the sheet: nothing to say */
    });
  });
  const el = h(
    'div',
    { class: 'invite', hidden: true },
    h('span', { class: 'hint', text: t('invite.hint') }),
    input,
    copy,
    share,
  );
  return { el, input };
}
