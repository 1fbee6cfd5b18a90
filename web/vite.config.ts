// Vite builds the client into dist/, which `ur serve --web-root web/dist` serves. Relative asset
// URLs keep the bundle working from any path, and the dev server proxies the API and the
// WebSocket to a local `ur serve` (start it with --allow-origin http://localhost:5173).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
