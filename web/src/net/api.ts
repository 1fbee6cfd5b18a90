// The JSON HTTP API of `ur serve` (docs/server.md): accounts, rule sets, leaderboard, history and
// finished games. Errors come back as ApiError carrying the server's code (said in the player's
// language by logic/errors.ts) and words, so that screens can show them instead of failing
// silently.

import type { HeadFetch } from '../logic/head_script.ts';
import type {
  AnalysisAnswer,
  ExploreAnswer,
  GameRecord,
  MatchRow,
  PositionsAnswer,
  PresetSummary,
  ProfileAnswer,
  RulesInfo,
  User,
} from '../logic/types.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again (a 429's Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

// GETs a screen is sure to make, started before its script has loaded (askEarly): the first call
// of the same path within EARLY_MS takes the answer, which keeps the request off the screen's
// critical path; later, the answer may be stale (a puzzle attempted since), and is asked afresh.
const early = new Map<string, { answer: Promise<unknown>; at: number }>();
const EARLY_MS = 10_000;

/** Starts GET `path` now; the first call of it in the next seconds gets this answer. */
export function askEarly<T>(path: string): Promise<T> {
  const asked = early.get(path);
  if (asked) return asked.answer as Promise<T>;
  const answer = call<T>('GET', path);
  answer.catch(() => {}); // said by the call that takes it
  early.set(path, { answer, at: Date.now() });
  return answer;
}

/** The GET the page's head started (logic/head_script.ts), taken once by a call of its path. */
function headFetch(path: string): Promise<Response> | null {
  const w = globalThis as { urHeadFetch?: HeadFetch };
  const started = w.urHeadFetch;
  if (!started || started.path !== path) return null;
  delete w.urHeadFetch;
  return started.res;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const asked = method === 'GET' ? early.get(path) : undefined;
  if (asked) {
    early.delete(path);
    if (Date.now() - asked.at < EARLY_MS) return asked.answer as Promise<T>;
  }
  let res: Response;
  try {
    const started = method === 'GET' ? headFetch(path) : null;
    res = await (started ??
      fetch(path, {
        method,
        credentials: 'same-origin',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }));
  } catch {
    throw new ApiError(0, 'network', '');
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const d = (data ?? {}) as { error?: string; message?: string };
    const wait = res.status === 429 ? res.headers.get('Retry-After') : null;
    const retryAfter = wait !== null && /^\d+$/.test(wait) ? Number(wait) : undefined;
    const code = d.error ?? (res.status === 429 ? 'rate_limited' : 'http_error');
    throw new ApiError(res.status, code, d.message ?? '', retryAfter);
  }
  return data as T;
}

export const api = {
  me: () => call<{ user: User }>('GET', '/api/me'),
  login: (username: string, password: string) =>
    call<{ user: User }>('POST', '/api/login', { username, password }),
  register: (username: string, password: string) =>
    call<{ user: User }>('POST', '/api/register', { username, password }),
  logout: () => call<{ ok: boolean }>('POST', '/api/logout', {}),
  guest: () => call<{ guest: boolean; name: string }>('POST', '/api/guest', {}),
  presets: () => call<{ presets: PresetSummary[] }>('GET', '/api/rules'),
  levels: () => call<{ levels: LevelInfo[] }>('GET', '/api/levels'),
  rules: (preset: string) => call<RulesInfo>('GET', `/api/rules/${encodeURIComponent(preset)}`),
  leaderboard: (limit = 50) =>
    call<{
      players: { rank: number; username: string; rating: number; games: number; wins: number }[];
    }>('GET', `/api/leaderboard?limit=${limit}`),
  matches: (user: string, before?: number) =>
    call<{ user: User; matches: MatchRow[] }>(
      'GET',
      `/api/users/${encodeURIComponent(user)}/matches?limit=20${before ? `&before=${before}` : ''}`,
    ),
  profile: (user: string) =>
    call<ProfileAnswer>('GET', `/api/users/${encodeURIComponent(user)}/profile`),
  game: (id: string) => call<MatchRow>('GET', `/api/games/${id}`),
  record: (id: string) => call<GameRecord>('GET', `/api/games/${id}/record`),
  positions: (id: string) => call<PositionsAnswer>('GET', `/api/games/${id}/positions`),
  analysis: (id: string) => call<AnalysisAnswer>('GET', `/api/games/${id}/analysis`),
  explore: (rules: string, position: string) =>
    call<ExploreAnswer>('GET', `/api/explore?${new URLSearchParams({ rules, position })}`),
  bot: () => call<BotStatus>('GET', '/api/bot'),
  setBot: (change: { bot: boolean } | { revoke: true }) =>
    call<BotStatus>('POST', '/api/bot', change),
  bots: () => call<{ bots: OnlineBot[] }>('GET', '/api/bots'),
  changePassword: (old_password: string, new_password: string) =>
    call<{ ok: boolean; sessions_ended: number }>('POST', '/api/account/password', {
      old_password,
      new_password,
    }),
  setLanguage: (language: string) =>
    call<{ ok: boolean; language: string }>('POST', '/api/account/language', { language }),
  logoutAll: () => call<{ sessions_ended: number }>('POST', '/api/account/logout-all', {}),
  deleteAccount: (password: string) =>
    call<{ username: string }>('POST', '/api/account/delete', { password }),
  adminUser: (name: string) =>
    call<AdminView>('GET', `/api/admin/users/${encodeURIComponent(name)}`),
  adminAction: (name: string, action: 'ban' | 'unban' | 'rename', body: object) =>
    call<{ action: AdminAction }>(
      'POST',
      `/api/admin/users/${encodeURIComponent(name)}/${action}`,
      body,
    ),
  adminLog: (before = 0) =>
    call<{ actions: AdminAction[]; next_before: number | null }>(
      'GET',
      `/api/admin/log?limit=50${before ? `&before=${before}` : ''}`,
    ),
  /** `withRules`: the answer carries the puzzle's rule set too (kept as rulesFor's). */
  puzzleNext: (rules: string, theme: string, withRules = false) =>
    call<PuzzleAsked>('GET', puzzlePath('rated', rules, theme, withRules)).then(keepRules),
  puzzleDaily: (rules = '', withRules = false) =>
    call<PuzzleAsked & { date: string }>('GET', puzzlePath('daily', rules, '', withRules)).then(
      keepRules,
    ),
  puzzleAttempt: (id: string, move: string) =>
    call<PuzzleAnswer>('POST', `/api/puzzles/${id}/attempt`, { move }),
  puzzleMe: () => call<PuzzleMe>('GET', '/api/puzzles/me'),
  mistakes: (id: string, seat: number) =>
    call<MistakesAnswer>('GET', `/api/games/${id}/mistakes?seat=${seat}`),
  mistakeAttempt: (id: string, event: number, move: string) =>
    call<PuzzleAnswer>('POST', `/api/games/${id}/mistakes/${event}/attempt`, { move }),
  friends: () => call<FriendsAnswer>('GET', '/api/friends'),
  follow: (username: string, follow: boolean) =>
    call<FriendsAnswer>('POST', '/api/friends', { username, follow }),
  blocks: () => call<BlocksAnswer>('GET', '/api/blocks'),
  block: (username: string, block: boolean) =>
    call<BlocksAnswer>('POST', '/api/blocks', { username, block }),
};

/** GET /api/admin/users/<name>: an account as an administrator sees it (docs/server.md). */
export interface AdminView {
  user: User & {
    admin: boolean;
    banned_at: number | null;
    ban_reason: string;
    deleted_at: number | null;
    bot: boolean;
  };
  addresses: { address: string; first_seen: number; last_seen: number }[];
  games: MatchRow[];
}

/** One entry of the admin audit list. */
export interface AdminAction {
  id: number;
  at: number;
  admin: string;
  action: string;
  target: string;
  target_id: number;
  detail: string;
}

/** GET /api/friends: the players the caller follows, by name, and whether each is online; the
 * players who follow the caller, newest first, and whether the caller follows them back. */
export interface FriendsAnswer {
  following: { username: string; rating: number; games: number; online: boolean }[];
  max: number;
  followers: { username: string; rating: number; games: number; following: boolean }[];
  followers_total: number;
}

/** GET /api/blocks: the players the caller blocks, by name (docs/server.md "Blocking"). */
export interface BlocksAnswer {
  blocking: { username: string }[];
  max: number;
}

/** A computer level of GET /api/levels (weakest first): its name and the agent it stands for. */
export interface LevelInfo {
  name: string;
  agent: string;
}

/** The caller's bot mark and bot-pool figures; `token` only in the answer that issued it. */
export interface BotStatus {
  bot: boolean;
  has_token: boolean;
  token?: string;
  rating: number;
  games: number;
  wins: number;
}

export interface OnlineBot {
  name: string;
  rules: string[];
  rating: number;
  games: number;
  busy: boolean;
}

/** A puzzle before its attempt (docs/puzzles.md, "HTTP API"): no hint of the answer. */
export interface PuzzleQuestion {
  id: string;
  rules: string;
  position: string;
  throw: number;
  moves: string[];
  rating: number;
}

/** GET /api/puzzles/next or /daily: the puzzle, and its rule set where asked (`rules_info=1`). */
export interface PuzzleAsked {
  puzzle: PuzzleQuestion;
  rules_info?: RulesInfo;
}

/** The answer to an attempt: every move's exact chance, the best, why (a mistake: `played`). */
export interface PuzzleAnswer {
  correct: boolean;
  best: string;
  moves: { move: string; value: number }[];
  themes: string[];
  reason: string;
  rated?: boolean;
  rating?: { rating: number; deviation: number; attempts: number; solved: number };
  change?: number;
  played?: string;
  estimate?: boolean;
}

/** GET /api/puzzles/me: an account's puzzle rating and latest attempts (a guest: nulls). */
export interface PuzzleMe {
  rating: { rating: number; deviation: number; attempts: number; solved: number } | null;
  history?: {
    puzzle: string;
    rules: string;
    move: string;
    solved: boolean;
    rating: number;
    change: number;
    at: number;
  }[];
}

/** GET /api/games/<id>/mistakes: a seat's mistakes and blunders as puzzles, in game order. */
export interface MistakesAnswer {
  id: string;
  rules: string;
  seat: number;
  estimate: boolean;
  mistakes: {
    event: number;
    position: string;
    throw: number;
    moves: string[];
    played: string;
    grade: string;
  }[];
}

/**
 * Where the next puzzle of the filters is asked for: the day's, or a rated one (a streak's too).
 * No rule set (''): the server's choice, which the puzzle names. `withRules`: the answer carries
 * the puzzle's rule set, so that a page which let the server choose needs no second request.
 */
export function puzzlePath(
  mode: 'rated' | 'streak' | 'daily',
  rules: string,
  theme: string,
  withRules = false,
) {
  const query = new URLSearchParams();
  if (rules) query.set('rules', rules);
  if (theme && mode !== 'daily') query.set('theme', theme);
  if (withRules) query.set('rules_info', '1');
  const q = `${query}`;
  return `/api/puzzles/${mode === 'daily' ? 'daily' : 'next'}${q ? `?${q}` : ''}`;
}

const rulesCache = new Map<string, Promise<RulesInfo>>();

/** A puzzle's answer that carries its rule set: kept, so that rulesFor asks for it no more. */
export function keepRules<T extends PuzzleAsked>(answer: T): T {
  const info = answer.rules_info;
  if (info && !rulesCache.has(answer.puzzle.rules))
    rulesCache.set(answer.puzzle.rules, Promise.resolve(info));
  return answer;
}

/** Rule sets never change while the page lives: fetch each once. */
export function rulesFor(preset: string): Promise<RulesInfo> {
  let p = rulesCache.get(preset);
  if (!p) {
    p = api.rules(preset);
    p.catch(() => rulesCache.delete(preset));
    rulesCache.set(preset, p);
  }
  return p;
}
