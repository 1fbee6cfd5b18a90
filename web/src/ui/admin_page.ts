// Moderation (#/admin, #/admin/<user>; docs/server.md, "Moderation"), for administrators: look
// an account up (its standing, recent addresses and games), ban or unban it, rename it, and the
// audit list of every moderation action with who took it. The server decides who may: anyone
// else gets its 403 in words.

import { api, type AdminAction, type AdminView } from '../net/api.ts';
import type { Route } from '../logic/route.ts';
import { adminHash, replayHash } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h } from './dom.ts';
import { actionForm, field, loginPrompt } from './account_forms.ts';

function searchForm(current: string | null): HTMLFormElement {
  const [label, input] = field('Username', {
    name: 'username',
    required: true,
    pattern: '[A-Za-z0-9_\\-]{3,20}',
    value: current ?? '',
    autocomplete: 'off',
  });
  return actionForm('admin-search', 'Find an account', 'Look up', [label], async () => {
    window.location.hash = adminHash(input.value.trim());
    return '';
  });
}

function table(head: string[], rows: (string | Node)[][], empty: string): HTMLElement {
  if (!rows.length) return h('p', { class: 'hint', text: empty });
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'admin-table' },
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
    ),
  );
}

function standing(v: AdminView): string {
  const u = v.user;
  if (u.deleted_at) return `deleted ${fmtDate(u.deleted_at)}`;
  if (u.banned_at)
    return `banned ${fmtDate(u.banned_at)}${u.ban_reason ? `: ${u.ban_reason}` : ''}`;
  return u.admin ? 'administrator' : 'in good standing';
}

function actions(v: AdminView, reload: () => void): HTMLElement[] {
  const name = v.user.username;
  const [reasonLabel, reason] = field('Reason (kept in the audit list)', {
    name: 'reason',
    maxlength: 500,
  });
  const ban = v.user.banned_at
    ? actionForm('unban', `Unban ${name}`, 'Unban', [], async () => {
        await api.adminAction(name, 'unban', {});
        reload();
        return 'Unbanned.';
      })
    : actionForm(
        'ban',
        `Ban ${name}`,
        'Ban',
        [
          h('p', {
            class: 'hint',
            text: 'Ends its sessions, revokes its bot token, leaves its tables.',
          }),
          reasonLabel,
        ],
        async () => {
          await api.adminAction(name, 'ban', { reason: reason.value });
          reload();
          return 'Banned.';
        },
        'danger',
      );
  const [newLabel, newName] = field('New username', {
    name: 'new_username',
    required: true,
    pattern: '[A-Za-z0-9_\\-]{3,20}',
    autocomplete: 'off',
  });
  const rename = actionForm('rename', `Rename ${name}`, 'Rename', [newLabel], async () => {
    const to = newName.value.trim();
    await api.adminAction(name, 'rename', { username: to });
    window.location.hash = adminHash(to);
    return 'Renamed.';
  });
  return [ban, rename];
}

function accountView(v: AdminView, reload: () => void): HTMLElement {
  const addresses = v.addresses.map((a) => [
    a.address,
    fmtDate(a.first_seen),
    fmtDate(a.last_seen),
  ]);
  const games = v.games.map((g) => [
    h('a', { href: replayHash(g.id), text: fmtDate(g.finished_at) }),
    g.players.join(' – '),
    g.result ?? '',
    g.reason,
  ]);
  return h(
    'div',
    { class: 'admin-account', 'data-user': v.user.username },
    h(
      'section',
      { class: 'card' },
      h('h2', { text: v.user.username }),
      h('p', {
        'data-part': 'standing',
        text: `${standing(v)} · rating ${v.user.rating} · ${v.user.games} rated games`,
      }),
      h('h3', { text: 'Recent addresses' }),
      table(['Address', 'First seen', 'Last seen'], addresses, 'No address recorded.'),
      h('h3', { text: 'Latest games' }),
      table(['Finished', 'Players', 'Result', 'Ended by'], games, 'No finished game.'),
    ),
    h('div', { class: 'account-grid' }, ...actions(v, reload)),
  );
}

function auditCard(list: AdminAction[]): HTMLElement {
  const rows = list.map((a) => [fmtDate(a.at), a.admin, a.action, a.target, a.detail]);
  return h(
    'section',
    { class: 'card', 'data-part': 'audit' },
    h('h2', { text: 'Audit list' }),
    table(['When', 'Who', 'Action', 'Account', 'Detail'], rows, 'No moderation action yet.'),
  );
}

export function mountAdmin(app: App, root: HTMLElement, route: Route): View {
  let gone = false;
  const user = route.name === 'admin' ? route.user : null;
  const found = h('div', { class: 'admin-found' });
  const audit = h('div', {});
  const page = h(
    'div',
    { class: 'account-page' },
    h('section', { class: 'card account-head' }, h('h1', { text: 'Administration' })),
    searchForm(user),
    found,
    audit,
  );
  root.append(page);
  if (app.identity.kind !== 'user') {
    page.replaceChildren(loginPrompt('Log in as an administrator.', '/admin'));
    return { destroy: () => (gone = true) };
  }
  const fail = (where: HTMLElement) => (e: unknown) => {
    if (!gone) where.replaceChildren(h('p', { class: 'card', role: 'alert', text: errorText(e) }));
  };
  const load = () => {
    void api
      .adminLog()
      .then((r) => !gone && audit.replaceChildren(auditCard(r.actions)), fail(audit));
    if (user)
      void api
        .adminUser(user)
        .then((v) => !gone && found.replaceChildren(accountView(v, load)), fail(found));
  };
  load();
  return { destroy: () => (gone = true) };
}
