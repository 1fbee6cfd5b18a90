// Vite builds the client into dist/, which `ur serve --web-root web/dist` serves. Relative asset
// URLs keep the bundle working from any path, and the dev server proxies the API and the
// WebSocket to a local `ur serve` (start it with --allow-origin http://localhost:5173).
//
// The first screen's script (main.ts: the shell and the lobby) and the scripts main.ts imports
// when a screen of theirs is first shown: `screens` (ui/screens.ts, every other screen, fetched
// right after the lobby's first paint for the table), `puzzle_screens` (the puzzles and "learn
// from your mistakes": a small script, so that a link to the puzzles waits for little), the
// account, admin and friends screens, and each language's catalog. Rolldown puts what two of
// them share (the board) in a chunk of its own, fetched beside either.
// Budget: ≤ 100,000 bytes of the first screen's script, the entry and its static imports
// (web/README.md; tests/e2e/perf.mjs prints it and the total).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { headScript } from './src/logic/head_script.ts';
import { LANGUAGES } from './src/logic/i18n.ts';

// Vite wraps every dynamic import in a preload helper (~1,750 bytes minified: vitejs/vite#13952,
// #18551) that fetches the imported chunk's CSS and the chunks it imports beside it, with
// <link rel=modulepreload> and a polyfill. Ours does the one part we need in a line: the chunks
// a screen's script imports (the board, shared by the table's and the puzzles' scripts) are
// imported at once beside it, not after it has been fetched and parsed. Style sheets are not
// (Vite lists the first script's among the dependencies of a script imported from a later one):
// every style sheet comes with the first script (main.ts), and the build fails if a later script
// ever imports one.
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const PRELOAD = `export const __vitePreload = (load, deps, at) => {
  for (const dep of deps ?? [])
    if (dep.endsWith('.js')) import(/* @vite-ignore */ new URL(dep, at).href).catch(() => {});
  return load();
};`;
const smallPreload: Plugin = {
  name: 'ur:small-preload',
  enforce: 'pre',
  load: (id) => (id === PRELOAD_HELPER ? PRELOAD : null),
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk' && !chunk.isEntry && chunk.viteMetadata?.importedCss.size)
        this.error(`${chunk.fileName} imports CSS: Vite's preload helper is needed again`);
  },
};

// A cold start asks for the chunks its first screen will need (the reader's catalog; on the
// puzzle pages their script, the chunks it imports and the first puzzle) from a line in the
// page's head (src/logic/head_script.ts), while the first script is still being fetched and run,
// instead of once main.ts runs.
const PUZZLE_ENTRY = 'src/ui/puzzle_screens.ts';
const CATALOG = /\/src\/logic\/lang\/(\w+)\.ts$/;
const headHints: Plugin = {
  name: 'ur:head-hints',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      if (!ctx.bundle) return html; // the dev server: nothing is bundled
      const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.facadeModuleId?.endsWith(PUZZLE_ENTRY));
      if (!entry) throw new Error(`no chunk for ${PUZZLE_ENTRY}`);
      const own = entry.imports.filter((f) => !chunks.some((c) => c.isEntry && c.fileName === f));
      const catalogs: Record<string, string> = {};
      for (const c of chunks) {
        const lang = CATALOG.exec(c.facadeModuleId ?? '')?.[1];
        if (lang && !c.isEntry) catalogs[lang === 'en_more' ? 'en' : lang] = `./${c.fileName}`;
      }
      const missing = Object.keys(LANGUAGES).filter((l) => !catalogs[l]);
      if (missing.length) throw new Error(`no catalog chunk for ${missing.join(', ')}`);
      const puzzles = [entry.fileName, ...own].map((f) => `./${f}`);
      const script = headScript({ puzzles, catalogs });
      return html.replace('</title>', `</title>\n  <script>${script}</script>`);
    },
  },
};

// Beside each text file worth it, its Brotli and gzip copies (x.js.br, x.js.gz), made once here
// at the strongest settings; `ur serve` sends the one a browser accepts (Content-Encoding), so a
// phone downloads about a third of the bytes and the server never compresses on the fly.
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const precompress: Plugin = {
  name: 'ur:precompress',
  apply: 'build',
  writeBundle(options, bundle) {
    const dir = options.dir ?? 'dist';
    for (const name of Object.keys(bundle)) {
      if (!COMPRESSIBLE.test(name)) continue;
      const file = path.join(dir, name);
      const data = readFileSync(file);
      if (data.length < 1024) continue; // a request's headers cost more than it would save
      const br = brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      });
      const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION });
      if (br.length < data.length) writeFileSync(`${file}.br`, br);
      if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
    }
  },
};

export default defineConfig({
  base: './',
  plugins: [smallPreload, headHints, precompress],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The chunks a dynamic import needs are listed for the helper above; no polyfill (every
    // browser the client supports has module scripts).
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
