// Your account (#/account; docs/server.md, "Your account"): change the password, log out
// everywhere, download your data, delete the account; and for an administrator the way to the
// admin page. Every request needs the session: a visitor or a guest is sent to log in.

import { api } from '../net/api.ts';
import type { User } from '../logic/types.ts';
import { profileHash } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h } from './dom.ts';
import { actionForm, field, loginPrompt } from './account_forms.ts';

function passwordForm(): HTMLFormElement {
  const [oldLabel, oldPw] = field('Current password', {
    name: 'old_password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const [newLabel, newPw] = field('New password (8 to 128 characters)', {
    name: 'new_password',
    type: 'password',
    required: true,
    minlength: 8,
    maxlength: 128,
    autocomplete: 'new-password',
  });
  return actionForm(
    'change-password',
    'Change password',
    'Change password',
    [oldLabel, newLabel],
    async () => {
      const r = await api.changePassword(oldPw.value, newPw.value);
      oldPw.value = newPw.value = '';
      return r.sessions_ended
        ? `Password changed. You were logged out on ${r.sessions_ended} other device(s).`
        : 'Password changed.';
    },
  );
}

function sessionsCard(app: App): HTMLElement {
  const here = h('button', { type: 'button', 'data-action': 'logout', text: 'Log out' });
  here.addEventListener('click', () => void app.logout());
  const form = actionForm(
    'logout-all',
    'Sessions',
    'Log out everywhere',
    [
      h('p', { class: 'hint', text: 'Log out here, or end every session of this account.' }),
      h('p', {}, here),
    ],
    async () => {
      await api.logoutAll();
      app.setIdentity({ kind: 'none' });
      app.socket.reconnect();
      window.location.hash = '#/login';
      return 'Logged out everywhere.';
    },
    '',
  );
  return form;
}

function dataCard(user: User): HTMLElement {
  return h(
    'section',
    { class: 'card account-form', 'data-part': 'export' },
    h('h2', { text: 'Your data' }),
    h('p', {
      class: 'hint',
      text: 'One JSON file: your account, your ratings, the addresses you played from and every finished game.',
    }),
    h('a', {
      class: 'button',
      href: '/api/account/export',
      download: `ur-account-${user.username}.json`,
      'data-action': 'export',
      text: 'Download my data',
    }),
  );
}

function deleteForm(app: App): HTMLFormElement {
  const [pwLabel, pw] = field('Password', {
    name: 'password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const [sureLabel] = field('I understand that this cannot be undone', {
    name: 'sure',
    type: 'checkbox',
    required: true,
  });
  sureLabel.classList.add('check');
  const words = h('p', {
    class: 'hint',
    text:
      'Your name is replaced by "deleted-…" in your games, which stay (your opponents keep ' +
      'them, and their ratings do not change). Your password, sessions and addresses are erased.',
  });
  return actionForm(
    'delete-account',
    'Delete my account',
    'Delete my account',
    [words, pwLabel, sureLabel],
    async () => {
      await api.deleteAccount(pw.value);
      app.setIdentity({ kind: 'none' });
      app.socket.reconnect();
      window.location.hash = '#/lobby';
      app.toast('Your account was deleted.', 'good');
      return 'Deleted.';
    },
    'danger',
  );
}

function header(user: User): HTMLElement {
  const since = user.created_at ? `Member since ${fmtDate(user.created_at)}.` : '';
  return h(
    'section',
    { class: 'card account-head' },
    h('h1', { text: 'Your account' }),
    h(
      'p',
      {},
      h('a', { href: profileHash(user.username), text: user.username }),
      ` · rating ${user.rating} · ${since}`,
    ),
    user.admin
      ? h('p', {}, h('a', { href: '#/admin', 'data-action': 'admin', text: 'Administration' }))
      : null,
  );
}

export function mountAccount(app: App, root: HTMLElement): View {
  let gone = false;
  const page = h('div', { class: 'account-page' }, h('p', { class: 'hint', text: 'Loading…' }));
  root.append(page);
  if (app.identity.kind !== 'user') {
    page.replaceChildren(loginPrompt('Log in to manage your account.', '/account'));
    return { destroy: () => (gone = true) };
  }
  void api
    .me()
    .then(({ user }) => {
      if (gone) return;
      page.replaceChildren(
        header(user),
        h(
          'div',
          { class: 'account-grid' },
          passwordForm(),
          sessionsCard(app),
          dataCard(user),
          deleteForm(app),
        ),
      );
    })
    .catch((e) => {
      if (gone) return;
      page.replaceChildren(loginPrompt(errorText(e), '/account'));
    });
  return { destroy: () => (gone = true) };
}
