import { act, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

// Tells React that these tests wrap their updates in act() (Testing Library's render says so itself).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * Puts `html` (what the server rendered) into the document and hydrates it with `app`, as the browser's entry does.
 * The container, and every error React recovered from (a hydration mismatch is one).
 */
export async function hydrateDrawn(
  html: string,
  app: ReactNode,
): Promise<{ container: HTMLElement; errors: unknown[] }> {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const errors: unknown[] = [];
  await act(async () => {
    hydrateRoot(container, app, { onRecoverableError: (error) => errors.push(error) });
  });
  return { container, errors };
}
