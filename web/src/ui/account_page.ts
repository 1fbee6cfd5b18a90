// Your account (#/account; docs/server.md, "Your account"): change the password, log out
// everywhere, download your data, delete the account; and for an administrator the way to the
// admin page. Every request needs the session: a visitor or a guest is sent to log in.

import { api } from '../net/api.ts';
import { t } from '../logic/i18n.ts';
import type { User } from '../logic/types.ts';
import { profileHash } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h } from './dom.ts';
import { actionForm, field, loginPrompt } from './account_forms.ts';

function passwordForm(): HTMLFormElement {
  const [oldLabel, oldPw] = field(t('account.currentPassword'), {
    name: 'old_password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const [newLabel, newPw] = field(t('account.newPassword'), {
    name: 'new_password',
    type: 'password',
    required: true,
    minlength: 8,
    maxlength: 128,
    autocomplete: 'new-password',
  });
  return actionForm(
    'change-password',
    t('account.changePassword'),
    t('account.changePassword'),
    [oldLabel, newLabel],
    async () => {
      const r = await api.changePassword(oldPw.value, newPw.value);
      oldPw.value = newPw.value = '';
      return r.sessions_ended
        ? t('account.passwordChangedOthers', { count: r.sessions_ended })
        : t('account.passwordChanged');
    },
  );
}

function sessionsCard(app: App): HTMLElement {
  const here = h('button', { type: 'button', 'data-action': 'logout', text: t('nav.logout') });
  here.addEventListener('click', () => void app.logout());
  const form = actionForm(
    'logout-all',
    t('account.sessions'),
    t('account.logoutAll'),
    [h('p', { class: 'hint', text: t('account.sessionsHint') }), h('p', {}, here)],
    async () => {
      await api.logoutAll();
      app.setIdentity({ kind: 'none' });
      app.socket.reconnect();
      window.location.hash = '#/login';
      return t('account.loggedOutAll');
    },
    '',
  );
  return form;
}

function dataCard(user: User): HTMLElement {
  return h(
    'section',
    { class: 'card account-form', 'data-part': 'export' },
    h('h2', { text: t('account.data') }),
    h('p', { class: 'hint', text: t('account.dataHint') }),
    h('a', {
      class: 'button',
      href: '/api/account/export',
      download: `ur-account-${user.username}.json`,
      'data-action': 'export',
      text: t('account.download'),
    }),
  );
}

function deleteForm(app: App): HTMLFormElement {
  const [pwLabel, pw] = field(t('login.password'), {
    name: 'password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const [sureLabel] = field(t('account.sure'), {
    name: 'sure',
    type: 'checkbox',
    required: true,
  });
  sureLabel.classList.add('check');
  const words = h('p', { class: 'hint', text: t('account.deleteHint') });
  return actionForm(
    'delete-account',
    t('account.delete'),
    t('account.delete'),
    [words, pwLabel, sureLabel],
    async () => {
      await api.deleteAccount(pw.value);
      app.setIdentity({ kind: 'none' });
      app.socket.reconnect();
      window.location.hash = '#/lobby';
      app.toast(t('account.deleted'), 'good');
      return t('account.deletedShort');
    },
    'danger',
  );
}

function header(user: User): HTMLElement {
  const since = user.created_at ? t('account.since', { date: fmtDate(user.created_at) }) : '';
  return h(
    'section',
    { class: 'card account-head' },
    h('h1', { text: t('account.title') }),
    h(
      'p',
      {},
      h('a', { href: profileHash(user.username), text: user.username }),
      ` · ${t('account.rating', { rating: String(user.rating) })} · ${since}`,
    ),
    user.admin
      ? h('p', {}, h('a', { href: '#/admin', 'data-action': 'admin', text: t('account.admin') }))
      : null,
  );
}

export function mountAccount(app: App, root: HTMLElement): View {
  let gone = false;
  const page = h(
    'div',
    { class: 'account-page' },
    h('p', { class: 'hint', text: t('app.loading') }),
  );
  root.append(page);
  if (app.identity.kind !== 'user') {
    page.replaceChildren(loginPrompt(t('account.login'), '/account'));
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
