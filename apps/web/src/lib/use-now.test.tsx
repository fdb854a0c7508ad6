// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hydrateDrawn } from '../test/hydrate.tsx';
import { DrawnAt, useNow } from './use-now.ts';

/** Minutes since `since`, as a page writes an age. */
function Age({ since }: { since: number }) {
  const now = useNow();
  return <p>opened {Math.floor((now - since) / 60_000)} minutes ago</p>;
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('useNow', () => {
  it('hydrates a page with the time it was drawn at, then goes on with the browser clock', async () => {
    const drawnAt = Date.parse('2026-11-27T12:00:59Z');
    const since = Date.parse('2026-11-27T11:59:00Z');
    vi.useFakeTimers({ now: drawnAt, toFake: ['Date'] });
    const html = renderToString(
      <DrawnAt value={drawnAt}>
        <Age since={since} />
      </DrawnAt>,
    );
    expect(html).toContain('opened <!-- -->1<!-- --> minutes ago');

    // The browser hydrates with its clock 62 s later than the server's (two minute boundaries crossed).
    vi.setSystemTime(drawnAt + 62_000);
    const { container, errors } = await hydrateDrawn(
      html,
      <DrawnAt value={drawnAt}>
        <Age since={since} />
      </DrawnAt>,
    );
    expect(errors).toEqual([]);
    expect(container.textContent).toBe('opened 3 minutes ago');
  });

  it('is the browser clock in a page the browser draws alone, even under a drawn page', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T12:05:00Z'), toFake: ['Date'] });
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => {
      createRoot(container).render(
        <DrawnAt value={Date.parse('2026-11-27T11:00:00Z')}>
          <Age since={Date.parse('2026-11-27T12:00:00Z')} />
        </DrawnAt>,
      );
    });
    expect(container.textContent).toBe('opened 5 minutes ago');
  });
});
