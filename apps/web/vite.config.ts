import { relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes .vite/chunk-modules.json beside the manifest: each chunk's file and the source modules bundled into it
 * (relative to apps/web). The route budget (scripts/route-bundles.ts) reads it to check that no chunk a customer's
 * page loads holds the admin console's code, which the manifest alone cannot tell (shared chunks merge modules).
 */
function chunkModules(): Plugin {
  return {
    name: 'storefront:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment.config.build.ssr) return;
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = output.moduleIds
          .filter((id) => !id.startsWith('\0'))
          .map((id) => relative(import.meta.dirname, id.split('?')[0] ?? id));
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: JSON.stringify(chunks) });
    },
  };
}

// Two builds: the browser's (dist/, with a manifest the server reads to link a page's split-off chunks) and the
// server renderer's (`--ssr src/entry-server.tsx` into dist-ssr/, one self-contained file, never served).
const formSchemas = /(node_modules[\\/]zod|packages[\\/]contract[\\/]src[\\/]schemas)[\\/]/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), chunkModules()],
  build: {
    target: isSsrBuild ? 'node22' : 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    manifest: !isSsrBuild,
    ...(!isSsrBuild && {
      rolldownOptions: {
        output: {
          // Few files rather than many small ones (docs/decisions/2026-11-27-fewer-chunks.md): a page loads at most
          // seven (the build checks it) instead of 30–60, each a round trip on a phone's network. In order:
          // - 'app': what the landing needs ('$initial': the entry and all it imports), one file;
          // - 'toasts': the notification host, which every page loads after it shows;
          // - 'public': what the public pages load later (the landing's Products and phone menus, the frame of the
          //   privacy, terms and 404 pages, which all bring the app's Mantine styles), so none of them needs 'shared';
          // - 'shared': whatever two or more split-off pages share besides, so the next page loads only its own chunk.
          // A page's own code stays its own chunk, as does the admin console's (the route budget checks that no
          // customer's chunk holds it). A group's test names the modules whose imports it takes, never a page the
          // server links by its module (a module taken into a group has no entry of its own in the build manifest).
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 4 },
              { name: 'toasts', test: /src[\\/]app[\\/]notifications-host\.tsx$/, priority: 3 },
              {
                name: 'public',
                test: /src[\\/](components[\\/]simple-page-layout|features[\\/]legal[\\/]components[\\/]legal-page|features[\\/]landing[\\/]components[\\/](products-menu|landing-mobile-menu))\.tsx$/,
                priority: 2,
              },
              // zod and the contract's schemas stay out of it: they load with the forms that check against them.
              { name: 'shared', minShareCount: 2, priority: 1, test: (id: string) => !formSchemas.test(id) },
            ],
          },
        },
      },
    }),
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
