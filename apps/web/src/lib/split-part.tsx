import { type ComponentType, lazy, useState } from 'react';

/**
 * A part of a page split off into a chunk of its own (a tab's panel the page draws only at that tab, a step after an
 * answer), so that the page shows without its code. `Part` draws it; `preload` loads it ahead, which the page does as
 * the part nears (its tab pointed at or focused, the form that may lead to the step sent). A part that is not loaded
 * yet suspends: drawn by a change of tab, a transition (the router's), the page keeps showing what it showed until the
 * part has come; drawn in a Suspense boundary of its own, that boundary's fallback shows meanwhile.
 *
 * A part the server draws (a tab at `?tab=`) is listed in its page module's `splitParts`, with its `module`: the server
 * loads the parts with the page (app/pages.tsx), draws a part at once and, for the admin console, links the chunk and
 * styles of the parts it drew with the page (`drawn` in app/pages.tsx, used by entry-server.tsx); the browser hydrates
 * the page when the part's chunk has come (the server's HTML stays meanwhile).
 */
export interface SplitPart<P extends object> {
  Part: ComponentType<P>;
  preload: () => Promise<unknown>;
  /** Its source module relative to apps/web, the build manifest's key (for a part the server draws). */
  module?: string;
}

/** The modules of the parts drawn by the server since they were last taken (a render is synchronous). */
const drawnOnServer = new Set<string>();

export function splitPart<P extends object>(load: () => Promise<ComponentType<P>>, module?: string): SplitPart<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // Tried again the next time (a chunk the network lost).
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Part(props: P) {
    if (import.meta.env.SSR && module) drawnOnServer.add(module);
    // Chosen once per mount, so a later render never swaps the component (which would mount the part again).
    const [Shown] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Shown {...props} />;
  }
  return { Part, preload, module };
}

/** The parts a page's module lists (`splitParts`): the server loads them with it. */
export const splitPartsOf = (exports: Record<string, unknown>): SplitPart<never>[] =>
  Array.isArray(exports.splitParts) ? (exports.splitParts as SplitPart<never>[]) : [];

/** Which of `parts` the server drew since this was last asked (their modules), forgetting them. */
export function takeDrawnParts(parts: SplitPart<never>[]): string[] {
  const drawn = parts.flatMap((part) => (part.module && drawnOnServer.has(part.module) ? [part.module] : []));
  drawnOnServer.clear();
  return drawn;
}
