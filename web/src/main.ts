// Entry point: mounts the application shell with one factory per screen. The lobby, the first
// screen of a visitor, is in this script; every other screen is in a second one (ui/screens.ts),
// loaded when one of them is first shown, or right after the lobby's first paint (Play leads to
// the table): the first screen waits for a third of the script.

import './style.css';
// The screens script may not import CSS (vite.config.ts): its screens' styles come with this one.
import './ui/history.css';
import './ui/profile.css';
import './ui/friends.css';
import './ui/table_chat.css';
import { App } from './ui/app.ts';
import { mountLobby } from './ui/lobby.ts';

const screens = () => import('./ui/screens.ts');

const app = new App(
  {
    lobby: async () => mountLobby,
    login: async () => (await screens()).mountLogin,
    table: async () => (await screens()).mountTable,
    leaderboard: async () => (await screens()).mountLeaderboard,
    history: async () => (await screens()).mountHistory,
    profile: async () => (await screens()).mountProfile,
    friends: async () => (await import('./ui/friends_page.ts')).mountFriends,
    replay: async () => (await screens()).mountReplay,
    howto: async () => (await screens()).mountHowto,
    explore: async () => (await screens()).mountExplore,
    not_found: async () => (await screens()).mountNotFound,
  },
  { lobby: mountLobby },
);
void app.start(document.body);
