// Entry point: mounts the application shell with one factory per screen.

import './style.css';
import { App } from './ui/app.ts';
import { mountExplore } from './ui/explore_page.ts';
import { mountHowto } from './ui/howto.ts';
import { mountLobby } from './ui/lobby.ts';
import { mountLogin } from './ui/login.ts';
import { mountHistory, mountLeaderboard, mountNotFound } from './ui/pages.ts';
import { mountReplay } from './ui/replay.ts';
import { mountTable } from './ui/table_page.ts';

const app = new App({
  login: mountLogin,
  lobby: mountLobby,
  table: mountTable,
  leaderboard: mountLeaderboard,
  history: mountHistory,
  replay: mountReplay,
  howto: mountHowto,
  explore: mountExplore,
  not_found: mountNotFound,
});
void app.start(document.body);
