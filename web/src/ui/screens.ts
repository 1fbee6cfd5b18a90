// Every screen but the lobby, in the one script that main.ts loads when the first of them is shown
// (vite.config.ts names the modules of that script).

export { mountExplore } from './explore_page.ts';
export { mountHowto } from './howto.ts';
export { mountLogin } from './login.ts';
export { mountHistory, mountLeaderboard, mountNotFound } from './pages.ts';
export { mountProfile } from './profile.ts';
export { mountReplay } from './replay.ts';
export { mountTable } from './table_page.ts';
