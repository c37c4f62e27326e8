import { defineConfig } from 'vitest/config';

// The controller that serves GET /fabric (the standalone controller listens on 8181).
const api = process.env.WEFT_API ?? 'http://127.0.0.1:8181';

export default defineConfig({
  // React without @vitejs/plugin-react (its current releases pull Vite 8): esbuild's automatic
  // JSX runtime is all this app needs; it just has no fast refresh.
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/fabric': { target: api, changeOrigin: true },
      '/v1': { target: api, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // cytoscape alone is ~430 kB minified; keep it in its own chunk (cached across app releases)
    // and let the warning fire only above that.
    chunkSizeWarningLimit: 500,
    rollupOptions: { output: { manualChunks: { cytoscape: ['cytoscape'], react: ['react', 'react-dom'] } } },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    restoreMocks: true,
  },
});
