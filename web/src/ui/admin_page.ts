// Moderation (#/admin, #/admin/<user>; docs/server.md, "Moderation"), for administrators: look
// an account up (its standing, recent addresses and games), ban or unban it, rename it, and the
// audit list of every moderation action with who took it. The server decides who may: anyone
// else gets its 403 in words.

import { api, type AdminAction, type AdminView } from '../net/api.ts';
import { t, type Key } from '../logic/i18n.ts';
import { playerNames, reasonText } from '../logic/status.ts';
import type { Route } from '../logic/route.ts';
import { adminHash, replayHash } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h } from './dom.ts';
import { actionForm, field, loginPrompt } from './account_forms.ts';

function searchForm(current: string | null): HTMLFormElement {
  const [label, input] = field(t('login.username'), {
    name: 'username',
    required: true,
    pattern: '[A-Za-z0-9_\\-]{3,20}',
    value: current ?? '',
    autocomplete: 'off',
  });
  const [find, lookUp] = [t('admin.find'), t('admin.lookUp')];
  return actionForm('admin-search', find, lookUp, [label], async () => {
    window.location.hash = adminHash(input.value.trim());
    return '';
  });
}

function table(head: string[], rows: (string | Node)[][], empty: string): HTMLElement {
  if (!rows.length) return h('p', { class: 'hint', text: empty });
  return h(
    'div',
    // A table wider than a phone scrolls in its box: the box takes the focus, so that keys
    // scroll it too.
    { class: 'table-scroll', tabindex: '0' },
    h(
      'table',
      { class: 'admin-table' },
      h('thead', {}, h('tr', {}, ...head.map((th) => h('th', { scope: 'col', text: th })))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
    ),
  );
}

function standing(v: AdminView): string {
  const u = v.user;
  if (u.deleted_at) return t('admin.deletedAt', { date: fmtDate(u.deleted_at) });
  if (u.banned_at) {
    const date = fmtDate(u.banned_at);
    const reason = u.ban_reason;
    return reason ? t('admin.bannedFor', { date, reason }) : t('admin.bannedAt', { date });
  }
  return u.admin ? t('admin.administrator') : t('admin.good');
}

function actions(v: AdminView, reload: () => void): HTMLElement[] {
  const name = v.user.username;
  const [reasonLabel, reason] = field(t('admin.reason'), {
    name: 'reason',
    maxlength: 500,
  });
  const ban = v.user.banned_at
    ? actionForm('unban', t('admin.unbanTitle', { name }), t('admin.unban'), [], async () => {
        await api.adminAction(name, 'unban', {});
        reload();
        return t('admin.unbanned');
      })
    : actionForm(
        'ban',
        t('admin.banTitle', { name }),
        t('admin.ban'),
        [h('p', { class: 'hint', text: t('admin.banHint') }), reasonLabel],
        async () => {
          await api.adminAction(name, 'ban', { reason: reason.value });
          reload();
          return t('admin.banned');
        },
        'danger',
      );
  const [newLabel, newName] = field(t('admin.newName'), {
    name: 'new_username',
    required: true,
    pattern: '[A-Za-z0-9_\\-]{3,20}',
    autocomplete: 'off',
  });
  const title = t('admin.renameTitle', { name });
  const rename = actionForm('rename', title, t('admin.rename'), [newLabel], async () => {
    const to = newName.value.trim();
    await api.adminAction(name, 'rename', { username: to });
    window.location.hash = adminHash(to);
    return t('admin.renamed');
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
    playerNames(g.players, g.summary).join(' – '),
    g.result ? coded(g.result === 'win' ? t('history.won') : t('history.lost'), g.result) : '',
    coded(reasonText(g.reason), g.reason),
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
        text: t('admin.standing', {
          standing: standing(v),
          rating: String(v.user.rating), // a rating is never grouped: 1200, not 1.200
          games: t('nav.games', { count: v.user.games }),
        }),
      }),
      h('h3', { text: t('admin.addresses') }),
      table(
        [t('admin.address'), t('admin.firstSeen'), t('admin.lastSeen')],
        addresses,
        t('admin.noAddress'),
      ),
      h('h3', { text: t('admin.games') }),
      table(
        [t('admin.finished'), t('admin.players'), t('admin.result'), t('admin.endedBy')],
        games,
        t('admin.noGame'),
      ),
    ),
    h('div', { class: 'account-grid' }, ...actions(v, reload)),
  );
}

const ACTIONS: Readonly<Record<string, Key>> = {
  grant: 'admin.act.grant',
  revoke: 'admin.act.revoke',
  ban: 'admin.act.ban',
  unban: 'admin.act.unban',
  rename: 'admin.act.rename',
};

/** A stored code in words, the code itself kept in the title for an operator (and the logs). */
function coded(words: string, code: string): HTMLElement {
  return h('span', { 'data-code': code, title: code, text: words });
}

function auditCard(list: AdminAction[]): HTMLElement {
  const rows = list.map((a) => [
    fmtDate(a.at),
    a.admin,
    coded(Object.hasOwn(ACTIONS, a.action) ? t(ACTIONS[a.action]) : a.action, a.action),
    a.target,
    a.detail,
  ]);
  return h(
    'section',
    { class: 'card', 'data-part': 'audit' },
    h('h2', { text: t('admin.audit') }),
    table(
      [t('admin.when'), t('admin.who'), t('admin.action'), t('admin.account'), t('admin.detail')],
      rows,
      t('admin.noAction'),
    ),
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
    h('section', { class: 'card account-head' }, h('h1', { text: t('account.admin') })),
    searchForm(user),
    found,
    audit,
  );
  root.append(page);
  if (app.identity.kind !== 'user') {
    page.replaceChildren(loginPrompt(t('admin.login'), '/admin'));
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
