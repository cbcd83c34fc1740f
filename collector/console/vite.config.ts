import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The console is served by the collector at `/`; its API is the same origin's `/api`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4001', '/auth': 'http://127.0.0.1:4001' } },
})
