// Entry point: mounts the application shell with one factory per screen. The lobby, the first
// screen of a visitor, is in this script; the other screens are in scripts loaded when one of
// them is first shown (ui/screens.ts also right after the lobby's first paint: Play leads to the
// table): the first screen waits for a third of the script.

import './style.css';
// The screens script may not import CSS (vite.config.ts): its screens' styles come with this one.
import './ui/history.css';
import './ui/profile.css';
import './ui/friends.css';
import './ui/puzzles.css';
import './ui/table_chat.css';
import './ui/account.css';
import { wordsReady } from './logic/i18n.ts';
import { parseHash } from './logic/route.ts';
import { App } from './ui/app.ts';
import { startLanguage } from './ui/language.ts';
import { mountLobby } from './ui/lobby.ts';
import { askPuzzlesEarly } from './ui/puzzles_early.ts';

// A screen's script comes with every word it may show: for a reader of English, the other
// screens' English words (a chunk of their own, fetched beside it; logic/i18n.ts).
const withWords = <T>(script: Promise<T>): Promise<T> =>
  Promise.all([script, wordsReady()]).then(([m]) => m);
const screensScript = () => import('./ui/screens.ts');
const screens = () => withWords(screensScript());
// The puzzles' screens: a small script of their own, so that a link to them waits for little.
const puzzleScript = () => import('./ui/puzzle_screens.ts');
const puzzleScreens = () => withWords(puzzleScript());
// The account and admin pages: a chunk of their own, fetched only by those who open them.
const accountScreens = () => withWords(import('./ui/account_screens.ts'));
const friendsPage = () => withWords(import('./ui/friends_page.ts'));

const app = new App(
  {
    lobby: async () => mountLobby,
    login: async () => (await screens()).mountLogin,
    table: async () => (await screens()).mountTable,
    leaderboard: async () => (await screens()).mountLeaderboard,
    history: async () => (await screens()).mountHistory,
    profile: async () => (await screens()).mountProfile,
    friends: async () => (await friendsPage()).mountFriends,
    puzzles: async () => (await puzzleScreens()).mountPuzzles,
    mistakes: async () => (await puzzleScreens()).mountMistakes,
    replay: async () => (await screens()).mountReplay,
    howto: async () => (await screens()).mountHowto,
    explore: async () => (await screens()).mountExplore,
    account: async () => (await accountScreens()).mountAccount,
    admin: async () => (await accountScreens()).mountAdmin,
    not_found: async () => (await screens()).mountNotFound,
  },
  { lobby: mountLobby },
);
// A challenge shows on every screen; its code loads with the first one (friends_page.ts).
app.socket.onMessage((m) => {
  if (m.type === 'challenged' || m.type === 'challenge_ended')
    void friendsPage().then((f) => f.challengeMessage(app, m));
});
// A cold start on a screen of the screens' or the puzzles' script fetches it beside the
// language's catalog, and the puzzle page's first puzzle beside both.
const first = parseHash(window.location.hash);
const firstScript = ['puzzles', 'mistakes'].includes(first.name)
  ? puzzleScript
  : ['lobby', 'account', 'admin', 'friends'].includes(first.name)
    ? null
    : screensScript;
void firstScript?.().catch(() => {}); // said when the screen is shown, if it fails
askPuzzlesEarly(first);
// A player's own language (its catalog fetched first; English is in this script) from the start.
void startLanguage().then(() => app.start(document.body));
