import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Two builds: the browser's (dist/, with a manifest the server reads to link a page's split-off chunks) and the
// server renderer's (`--ssr src/entry-server.tsx` into dist-ssr/, one self-contained file, never served).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: {
    target: isSsrBuild ? 'node22' : 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    manifest: !isSsrBuild,
    ...(isSsrBuild && {
      outDir: 'dist-ssr',
      emptyOutDir: true,
      copyPublicDir: false,
      // The renderer imports the split-off public pages directly on purpose (the browser build still splits them).
      rolldownOptions: { checks: { ineffectiveDynamicImport: false } },
    }),
  },
  ssr: { noExternal: true },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/sandbox': 'http://localhost:3000' },
  },
}));
