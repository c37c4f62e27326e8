import { defineConfig } from 'vitest/config';

// Where the dev server sends each call (the ports of `./weft demo`; override for another stack):
// the controller serves GET /fabric, the telemetry collector its hotspot history, link series,
// flows and status, scheduler-api everything else under /v1 (jobs, fabric, events).
const controller = process.env.WEFT_API ?? 'http://127.0.0.1:8181';
const schedulerApi = process.env.WEFT_SCHEDULER_API ?? 'http://127.0.0.1:8082';
const collector = process.env.WEFT_COLLECTOR ?? 'http://127.0.0.1:8083';

/** The collector's paths; checked before the catch-all /v1 (vite tries proxy keys in order). */
export const COLLECTOR_PATHS = ['/v1/hotspots', '/v1/links', '/v1/flows', '/v1/status'];

// The same routes for the dev server and for `vite preview` (how `./weft demo` serves dist/).
const proxy = {
  '/fabric': { target: controller, changeOrigin: true },
  ...Object.fromEntries(COLLECTOR_PATHS.map((p) => [p, { target: collector, changeOrigin: true }])),
  '/v1': { target: schedulerApi, changeOrigin: true },
};

// `vite build --mode bench` builds the UI benchmark's page (bench.html) into dist-bench/ instead.
export default defineConfig(({ mode }) => ({
  // React without @vitejs/plugin-react (its current releases pull Vite 8): esbuild's automatic
  // JSX runtime is all this app needs; it just has no fast refresh.
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    strictPort: true,
    proxy,
  },
  preview: {
    host: '127.0.0.1',
    port: 8080,
    strictPort: true,
    proxy,
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // cytoscape alone is ~430 kB minified; keep it in its own chunk (cached across app releases)
    // and let the warning fire only above that.
    chunkSizeWarningLimit: 500,
    ...(mode === 'bench' ? { outDir: 'dist-bench' } : {}),
    rollupOptions: {
      ...(mode === 'bench' ? { input: 'bench.html' } : {}),
      output: { manualChunks: { cytoscape: ['cytoscape'], react: ['react', 'react-dom'] } },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    restoreMocks: true,
  },
}));
