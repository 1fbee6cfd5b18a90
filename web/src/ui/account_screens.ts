// The account and admin screens, in a script of their own that main.ts imports when one of them
// is first shown: few players open them, so nobody else downloads them. Like the `screens`
// script, it imports only what the first script has already (vite.config.ts checks).

export { mountAccount } from './account_page.ts';
export { mountAdmin } from './admin_page.ts';
