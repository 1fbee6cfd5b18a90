// Hash routes, so that a static file server (ur serve --web-root) serves every screen from one
// index.html: #/lobby, #/login, #/table/<id>?invite=<token>, #/leaderboard, #/history/<user>,
// #/profile/<user>, #/friends, #/puzzles (?rules=&theme=), #/puzzles/streak, #/puzzles/daily,
// #/mistakes/<game id>?seat=<1|2> (learn from your mistakes),
// #/replay/<id>, #/rules/<preset> (how to play), #/explore?rules=<rules>&position=<position>
// (the explorer; the server also answers /explore?… with the page, which moves it here),
// #/account (your account) and #/admin, #/admin/<user> (moderation, administrators only).
// Everything taken from the URL is validated here before it reaches a request.

export type Route =
  | { name: 'login'; next: string | null }
  | { name: 'lobby' }
  | { name: 'table'; id: string; invite: string | null }
  | { name: 'leaderboard' }
  | { name: 'friends' }
  | {
      name: 'puzzles';
      mode: 'rated' | 'streak' | 'daily';
      rules: string | null;
      theme: string | null;
    }
  | { name: 'mistakes'; id: string; seat: 1 | 2 }
  | { name: 'history'; user: string }
  | { name: 'profile'; user: string }
  | { name: 'replay'; id: string }
  | { name: 'howto'; preset: string }
  | { name: 'explore'; rules: string; position: string }
  | { name: 'account' }
  | { name: 'admin'; user: string | null }
  | { name: 'not_found'; hash: string };

const TABLE_ID = /^[0-9a-f]{16}$/;
const INVITE = /^[0-9a-f]{8,64}$/;
const USER = /^[A-Za-z0-9_-]{3,20}$/;
const PRESET = /^[a-z0-9-]{1,32}$/;
const PUZZLE_MODE = /^(streak|daily)$/;
// Longer than any rule set or position string; only bounds what goes into a request.
const RULES_MAX = 400;
const POSITION_MAX = 200;

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart, query = ''] = raw.split('?', 2);
  const params = new URLSearchParams(query);
  const parts = pathPart.split('/').filter((p) => p !== '');
  if (parts.length === 0) return { name: 'lobby' };
  const [head, arg] = parts;
  if (parts.length === 1 && head === 'lobby') return { name: 'lobby' };
  if (parts.length === 1 && head === 'login') {
    const next = params.get('next');
    return { name: 'login', next: next && next.startsWith('/') ? next : null };
  }
  if (parts.length === 1 && head === 'leaderboard') return { name: 'leaderboard' };
  if (parts.length === 1 && head === 'account') return { name: 'account' };
  if (parts.length === 1 && head === 'admin') return { name: 'admin', user: null };
  if (parts.length === 1 && head === 'friends') return { name: 'friends' };
  if (head === 'puzzles' && (parts.length === 1 || (parts.length === 2 && PUZZLE_MODE.test(arg)))) {
    const rules = params.get('rules');
    const theme = params.get('theme');
    return {
      name: 'puzzles',
      mode: parts.length === 1 ? 'rated' : (arg as 'streak' | 'daily'),
      rules: rules && PRESET.test(rules) ? rules : null,
      theme: theme && PRESET.test(theme) ? theme : null,
    };
  }
  if (parts.length === 2 && head === 'mistakes' && TABLE_ID.test(arg))
    return { name: 'mistakes', id: arg, seat: params.get('seat') === '2' ? 2 : 1 };
  if (parts.length === 2 && head === 'table' && TABLE_ID.test(arg)) {
    const invite = params.get('invite');
    return { name: 'table', id: arg, invite: invite && INVITE.test(invite) ? invite : null };
  }
  if (parts.length === 2 && (head === 'history' || head === 'profile' || head === 'admin')) {
    let user = arg;
    try {
      user = decodeURIComponent(arg);
    } catch {
      return { name: 'not_found', hash: raw };
    }
    if (USER.test(user) && head === 'admin') return { name: 'admin', user };
    if (USER.test(user)) return { name: head === 'profile' ? 'profile' : 'history', user };
  }
  if (parts.length === 2 && head === 'replay' && TABLE_ID.test(arg))
    return { name: 'replay', id: arg };
  if (parts.length === 2 && head === 'rules' && PRESET.test(arg))
    return { name: 'howto', preset: arg };
  // The explorer takes any text: the server parses and judges it (a bad one is shown in words).
  if (parts.length === 1 && head === 'explore')
    return {
      name: 'explore',
      rules: (params.get('rules') ?? '').slice(0, RULES_MAX) || 'finkel',
      position: (params.get('position') ?? '').slice(0, POSITION_MAX) || 'start',
    };
  return { name: 'not_found', hash: raw };
}

export function tableHash(id: string, invite?: string | null): string {
  return invite ? `#/table/${id}?invite=${encodeURIComponent(invite)}` : `#/table/${id}`;
}

/** The full invite URL to share: same origin and path as the page, with the table route. */
export function inviteUrl(pageUrl: string, id: string, invite: string): string {
  const u = new URL(pageUrl);
  u.hash = tableHash(id, invite).slice(1);
  return u.toString();
}

export const historyHash = (user: string) => `#/history/${encodeURIComponent(user)}`;
export const profileHash = (user: string) => `#/profile/${encodeURIComponent(user)}`;
export const adminHash = (user: string) => `#/admin/${encodeURIComponent(user)}`;
export const replayHash = (id: string) => `#/replay/${id}`;
/** The puzzles' address: the mode, and the filters that are not the defaults. */
export function puzzlesHash(
  mode: 'rated' | 'streak' | 'daily',
  rules: string,
  theme: string,
): string {
  const q = new URLSearchParams();
  if (rules && rules !== 'finkel') q.set('rules', rules);
  if (theme) q.set('theme', theme);
  const query = q.toString();
  return `#/puzzles${mode === 'rated' ? '' : `/${mode}`}${query ? `?${query}` : ''}`;
}
export const mistakesHash = (id: string, seat: number) => `#/mistakes/${id}?seat=${seat}`;
export const howtoHash = (preset: string) => `#/rules/${preset}`;
export const exploreHash = (rules: string, position: string) =>
  `#/explore?${new URLSearchParams({ rules, position }).toString()}`;

/**
 * Routes that need a WebSocket identity (a user or a guest) before they can be shown. The lobby
 * does not: a visitor plays at once and becomes a guest on the first Play.
 */
export function needsIdentity(r: Route): boolean {
  // Taking a seat by an invite needs one (a guest's cookie brings the seat back after a
  // reconnect); watching a public table or a finished game does not.
  // The account and admin pages are an account's: a visitor logs in first.
  if (r.name === 'account' || r.name === 'admin') return true;
  return r.name === 'table' && r.invite !== null;
}
