// Vite builds the client into dist/, which `ur serve --web-root web/dist` serves. Relative asset
// URLs keep the bundle working from any path, and the dev server proxies the API and the
// WebSocket to a local `ur serve` (start it with --allow-origin http://localhost:5173).
//
// Two scripts: the first screen's (main.ts, the shell and the lobby) and `screens`
// (ui/screens.ts: every other screen and what only they use), which main.ts imports when one is
// first shown — right after the lobby's first paint for the table. Rolldown's own split of a
// dynamic import makes exactly these two: what the lobby imports stays in the first script.
// Budget: ≤ 100,000 bytes of the first screen's script, the entry and its static imports
// (web/README.md; tests/e2e/perf.mjs prints it and the total).
import { defineConfig, type Plugin } from 'vite';

// Vite wraps every dynamic import in a preload helper (~1,750 bytes minified, even with
// modulePreload off: vitejs/vite#13952, #18551) that fetches the imported chunk's CSS and
// dependencies first. The `screens` script has neither (one CSS file, loaded by index.html; its
// imports are the first script's), so the helper only imports; the build fails if that ever
// stops being true.
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const plainDynamicImport: Plugin = {
  name: 'ur:plain-dynamic-import',
  enforce: 'pre',
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : null),
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || !chunk.isDynamicEntry) continue;
      if (chunk.viteMetadata?.importedCss.size)
        this.error(`${chunk.fileName} imports CSS: Vite's preload helper is needed again`);
      // Its dependencies would be fetched first too: only the entry, already loaded, may be one.
      const own = chunk.imports.filter((f) => {
        const dep = bundle[f];
        return !(dep?.type === 'chunk' && dep.isEntry);
      });
      if (own.length)
        this.error(
          `${chunk.fileName} imports ${own.join(', ')}: Vite's preload helper is needed again`,
        );
    }
  },
};

export default defineConfig({
  base: './',
  plugins: [plainDynamicImport],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // No <link rel=modulepreload> and no polyfill: the `screens` script is fetched when imported.
    modulePreload: false,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
