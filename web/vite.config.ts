// Vite builds the client into dist/, which `ur serve --web-root web/dist` serves. Relative asset
// URLs keep the bundle working from any path, and the dev server proxies the API and the
// WebSocket to a local `ur serve` (start it with --allow-origin http://localhost:5173).
//
// Two scripts: the first screen's (main.ts, the shell and the lobby) and `screens`, every other
// screen and what only they use (the table, board, replay, review, explorer, how to play, pages,
// login), which main.ts imports when one is first shown — right after the lobby's first paint for
// the table. Two rather than one per screen: each chunk boundary costs import and export lists,
// and the whole must stay within the 100 KB budget. A new screen's module that this pattern does
// not name becomes a chunk of its own (it still works); name it here.
import { defineConfig } from 'vite';

const SCREENS =
  /\/src\/ui\/(screens|table|board|dice|animator|banner|rematch|replay|review|explore|howto|pages|login|confirm)|\/src\/logic\/(geometry|plan|replay|review|howto)/;

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // No preload helper: the `screens` chunk has no dependencies of its own to fetch early.
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only the named modules: what they share with the lobby stays in the first script.
          includeDependenciesRecursively: false,
          groups: [{ name: 'screens', test: SCREENS }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
