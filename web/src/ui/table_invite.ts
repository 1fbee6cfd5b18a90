// The waiting table's invite: the link, "Copy link" and, where the browser has a share sheet
// (phones mostly), "Share". Shown to the table's owner until the second seat is taken.

import { h, onClick } from './dom.ts';

export function inviteBox(toast: (text: string, tone: 'info' | 'good') => void) {
  const input = h('input', { readonly: true, 'aria-label': 'Invite link', class: 'invite-link' });
  const copy = h('button', { type: 'button', 'data-action': 'copy-invite', text: 'Copy link' });
  const share = h('button', { type: 'button', 'data-action': 'share-invite', text: 'Share' });
  onClick(copy, async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast('Invite link copied. Send it to your opponent.', 'good');
    } catch {
      toast('Copy the selected link by hand (the browser refused the clipboard).', 'info');
    }
  });
  share.hidden = typeof navigator.share !== 'function';
  onClick(share, () => {
    const data = { title: 'A game of Ur', text: 'Play a game of Ur with me', url: input.value };
    navigator.share(data).catch(() => {
      /* the player closed the sheet: nothing to say */
    });
  });
  const el = h(
    'div',
    { class: 'invite', hidden: true },
    h('span', { class: 'hint', text: 'Invite link:' }),
    input,
    copy,
    share,
  );
  return { el, input };
}
