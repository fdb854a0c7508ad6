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

/**
 * Mantine's ScrollArea (the dashboard's navigation scrolls in one) takes one hook from @floating-ui/react's main module,
 * and AppShell's header, footer and aside one class name from react-remove-scroll's component: a module is bundled
 * whole, so every signed-in page loaded both libraries, which only popovers and dialogs use. They are pointed at
 * Mantine's own ref-merging hook and at the class name's module of constants; the build fails if a Mantine release
 * changes these lines, so that the rewrite is looked at again (docs/decisions/2026-11-29-pages-under-160-kb.md).
 */
function narrowMantineImports(): Plugin {
  const mantineModule = (path: string) =>
    new RegExp(
      `node_modules[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/]components[\\\\/]${path.replaceAll('/', '[\\\\/]')}\\.mjs$`,
    );
  const rewrites: { module: RegExp; replace: [string | RegExp, string][] }[] = [
    {
      module: mantineModule('ScrollArea/ScrollArea'),
      replace: [
        ['import { useMergeRefs } from "@floating-ui/react";', 'import { useMergedRef } from "@mantine/hooks";'],
        [/useMergeRefs\(\[([^\]]*)\]\)/g, 'useMergedRef($1)'],
      ],
    },
    ...['AppShellHeader', 'AppShellFooter', 'AppShellAside'].map((section) => ({
      module: mantineModule(`AppShell/${section}/${section}`),
      replace: [
        [
          'import { RemoveScroll } from "react-remove-scroll";',
          'import { zeroRightClassName } from "react-remove-scroll-bar/constants";',
        ],
        ['RemoveScroll.classNames.zeroRight', 'zeroRightClassName'],
      ] as [string | RegExp, string][],
    })),
  ];
  return {
    name: 'storefront:narrow-mantine-imports',
    enforce: 'pre',
    transform(code, id) {
      const rewrite = rewrites.find((candidate) => candidate.module.test(id.split('?')[0] ?? id));
      if (!rewrite) return null;
      let out = code;
      for (const [from, to] of rewrite.replace) {
        const next = out.replace(from, to);
        if (next === out) this.error(`${id}: "${from}" not found; Mantine changed: look at narrowMantineImports again`);
        out = next;
      }
      return { code: out, map: null };
    },
  };
}

// Two builds: the browser's (dist/, with a manifest the server reads to link a page's split-off chunks) and the
// server renderer's (`--ssr src/entry-server.tsx` into dist-ssr/, one self-contained file, never served).
const formSchemas = /(node_modules[\\/]zod|packages[\\/]contract[\\/]src[\\/]schemas)[\\/]/;

/** Modules of Mantine's core under `esm/<folder>/<one of names>/`. */
const mantineCore = (folder: 'components' | 'utils', names: string[]) =>
  new RegExp(`node_modules[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/]${folder}[\\\\/](${names.join('|')})[\\\\/]`);
/** What a form's fields are made of: Mantine's inputs, @mantine/form and what they bring. */
const formParts = [
  mantineCore('components', [
    'Input',
    'InputBase',
    'TextInput',
    'PasswordInput',
    'Switch',
    'Textarea',
    'NativeSelect',
    'SegmentedControl',
    // The two pieces of Combobox a NativeSelect uses (the rest of it is Select's, below).
    'Combobox[\\\\/](ComboboxChevron|get-parsed-combobox-data)',
  ]),
  mantineCore('utils', ['InlineInput', 'InputsGroupFieldset']),
  /node_modules[\\/](@mantine[\\/]form|klona|fast-deep-equal)[\\/]/,
];
/**
 * What only pages and parts that draw forms use besides (Proxies, Purchase, Settings, the admin console, their dialogs
 * and tabs): Proxies' and the console's tabs, the console's bars, the contract's words and figures for proxies,
 * checkout, top-up, API keys and the console, and the app's pieces of Proxies and those pages. Every page loads the
 * shared file; these go with the forms' file, which those pages load anyway.
 */
const formPageParts = [
  mantineCore('components', ['Tabs', 'FloatingIndicator', 'Progress']),
  /packages[\\/]contract[\\/]src[\\/](residential|proxy-users|top-up|checkout|api-keys|proxy-formats|replacements|replacement-reasons)\.ts$/,
  // Their CSS modules stay in the shared file's styles, after Mantine's that they override (a file of styles of its
  // own could be linked before those).
  /src[\\/]components[\\/](scrolling-tabs-list|copy-button|copy-value-button|daily-usage-chart)\.tsx$/,
  /src[\\/]features[\\/]proxies[\\/](api[\\/]proxies-api\.ts|components[\\/]replacement-history\.tsx)$/,
  /src[\\/]lib[\\/](page-origin|queries[\\/]features)\.ts$/,
  // Mantine's hooks that only those parts use (FloatingIndicator, SegmentedControl, Select, the copy buttons), and
  // TanStack Query's paged lists (Proxies' users, the console's coupons).
  /node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-clipboard|use-timeout|use-shallow-effect|use-mounted|use-mutation-observer|use-previous)[\\/]/,
  /node_modules[\\/]@tanstack[\\/](query-core[\\/]build[\\/]modern[\\/]infiniteQueryObserver|react-query[\\/]build[\\/]modern[\\/]useInfiniteQuery)\.js$/,
];
/**
 * What opens over a page and its pieces: Mantine's Modal (the dialogs load when they first open:
 * components/lazy-dialog.tsx), Popover, Menu, Tooltip.
 */
const overlayParts = [
  mantineCore('components', [
    'Popover',
    'Menu',
    'Modal',
    'ModalBase',
    'Tooltip',
    'FocusTrap',
    'Portal',
    'Overlay',
    'Transition',
  ]),
  mantineCore('utils', ['Floating']),
  // What they position and lock the page's scroll with (all of it but the class names AppShell takes, which stay with
  // the frame: narrowMantineImports).
  /node_modules[\\/](@floating-ui|tabbable|react-remove-scroll|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]/,
  /node_modules[\\/]react-remove-scroll-bar[\\/](?!dist[\\/]es2015[\\/]constants\.js$)/,
  // Mantine's hooks that only they use: a dialog's focus trap and return, a popover's outside click.
  /node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-focus-trap|use-focus-return|use-click-outside|use-long-press)[\\/]/,
];
/**
 * Fields that only some screens draw, each in a chunk of its own with those that use it, out of 'shared' and 'forms':
 * Mantine's Select (Proxies' Residential tab, two admin tabs, the admin forms), NumberInput with react-number-format
 * (Purchase's custom amount, the residential endpoint generator, the admin console), PinInput and Checkbox (the
 * two-step code and 'trust this device', Settings' two-step dialog, the coupon form).
 */
const ownFields = [
  mantineCore('components', ['Combobox', 'Select', 'NumberInput', 'PinInput']),
  /node_modules[\\/]react-number-format[\\/]/,
  // All of Checkbox but its CheckIcon, which Menu and Select draw too.
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Checkbox[\\/](?!CheckIcon\.mjs$)/,
];
/** The sign-in screens' shared parts (their layout, fields, social buttons) and the new-password form. */
const authParts =
  /src[\\/](features[\\/]auth[\\/]components[\\/](auth-layout|email-field|social-buttons|check-email)|components[\\/](new-password-form|password-requirements))\.tsx$/;
/** The admin console's modules: out of 'shared', they stay with the console's chunk and its tabs'. */
const adminParts = /src[\\/]features[\\/]admin[\\/]/;
/**
 * What the admin console's chunk and its split-off parts share, and the contract's words and figures for the console:
 * one file that only an administrator loads.
 */
const consoleParts = [/src[\\/]features[\\/]admin[\\/]api[\\/]/, /packages[\\/]contract[\\/]src[\\/]admin\.ts$/];
/** What the sandbox's payment pages share: their frame, their requests, the path back into the app. */
const sandboxParts =
  /src[\\/]features[\\/]sandbox[\\/](api[\\/]sandbox-api\.ts|components[\\/]sandbox-frame\.tsx|in-app-path\.ts)$/;
/** The frame of the privacy, terms and 404 pages. */
const legalParts =
  /src[\\/](components[\\/]simple-page-layout\.tsx|features[\\/]legal[\\/](legal-document\.ts|components[\\/]legal-page\.tsx))$/;
const anyOf = (parts: RegExp[]) => (id: string) => parts.some((part) => part.test(id));

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), chunkModules(), narrowMantineImports()],
  build: {
    target: isSsrBuild ? 'node22' : 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    manifest: !isSsrBuild,
    ...(!isSsrBuild && {
      rolldownOptions: {
        output: {
          // Few files rather than many small ones (docs/decisions/2026-11-27-fewer-chunks.md): a route loads at most
          // seven before it shows (the build checks it), each a round trip on a phone's network; and a file holds what
          // the pages that load it draw, not what some of them open later (docs/decisions/2026-11-29-light-pages.md).
          // Highest priority first (a group takes its modules with all they import that no earlier group took):
          // - 'app': what the landing needs ('$initial': the entry and all it imports), one file;
          // - 'shared': what two or more split-off chunks share, but the parts the groups below name: the dashboard's
          //   frame and the components the pages draw. Every signed-in page loads it, the next page only its own chunk;
          // - 'console': what the admin console's chunks share (consoleParts), loaded by an administrator only;
          // - 'forms': the fields of a form that two or more chunks share (formParts): Settings, Purchase, Proxies, the
          //   sign-in screens, the admin console, a dialog's form; and what only those pages draw (formPageParts);
          // - 'overlays': what opens over a page (overlayParts) with the positioning and scroll-lock libraries:
          //   Proxies' menus and list link popover, the dialogs (which load when they first open), the landing's
          //   menus, the toasts;
          // - 'auth': the sign-in screens' shared parts (authParts);
          // - 'sandbox', 'legal': the sandbox payment pages' frame and requests, the privacy, terms and 404 pages'
          //   frame;
          // - 'public': the landing's Products and phone menus (Mantine's Menu and Drawer), loaded when first opened.
          // zod and the contract's schemas load with the forms that check against them, and Mantine's Select,
          // NumberInput, PinInput and Checkbox (ownFields) with the chunks that draw them, as does the admin console's
          // code with the console. A page's own code stays its own chunk (the route budget checks that no customer's
          // chunk holds the admin console's). A group's test names the modules whose imports it takes, never a page
          // the server links by its module (a module taken into a group has no entry of its own in the build
          // manifest).
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 8 },
              {
                name: 'shared',
                minShareCount: 2,
                priority: 7,
                test: (id: string) =>
                  !formSchemas.test(id) &&
                  !anyOf(formParts)(id) &&
                  !anyOf(formPageParts)(id) &&
                  !anyOf(overlayParts)(id) &&
                  !anyOf(ownFields)(id) &&
                  !authParts.test(id) &&
                  !adminParts.test(id) &&
                  !anyOf(consoleParts)(id) &&
                  !sandboxParts.test(id) &&
                  !legalParts.test(id),
              },
              { name: 'console', minShareCount: 2, priority: 6, test: anyOf(consoleParts) },
              { name: 'forms', minShareCount: 2, priority: 5, test: anyOf([...formParts, ...formPageParts]) },
              { name: 'overlays', minShareCount: 2, priority: 4, test: anyOf(overlayParts) },
              { name: 'auth', priority: 3, test: authParts },
              { name: 'sandbox', minShareCount: 2, priority: 2, test: sandboxParts },
              { name: 'legal', minShareCount: 2, priority: 2, test: legalParts },
              {
                name: 'public',
                test: /src[\\/]features[\\/]landing[\\/]components[\\/](products-menu|landing-mobile-menu)\.tsx$/,
                priority: 1,
              },
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
