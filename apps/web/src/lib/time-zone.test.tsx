// @vitest-environment happy-dom
import { formatDate } from '@storefront/contract';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { hydrateDrawn } from '../test/hydrate.tsx';
import { drawnInAnotherZone, ReaderTimeZone, useTimeZone } from './time-zone.ts';

const at = Date.parse('2026-11-27T12:00:00Z');
const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
// A zone 14 hours from UTC, unless this machine is in it: the cookie the page was drawn with says another zone.
const drawnIn = own === 'Pacific/Kiritimati' ? 'Etc/GMT+12' : 'Pacific/Kiritimati';

function When() {
  return <p>{formatDate(at, 'date-time', useTimeZone())}</p>;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('useTimeZone', () => {
  it("hydrates a page in the zone it was drawn in, then writes the browser's own", async () => {
    const html = renderToString(
      <ReaderTimeZone value={drawnIn}>
        <When />
      </ReaderTimeZone>,
    );
    expect(html).toContain(formatDate(at, 'date-time', drawnIn));
    expect(formatDate(at, 'date-time', drawnIn)).not.toBe(formatDate(at, 'date-time'));

    // The computer's zone changed since the cookie was set: the browser's first render still says what the server's did.
    const { container, errors } = await hydrateDrawn(
      html,
      <ReaderTimeZone value={drawnIn}>
        <When />
      </ReaderTimeZone>,
    );
    expect(errors).toEqual([]);
    expect(container.textContent).toBe(formatDate(at, 'date-time'));
  });

  it("renders once when the page was drawn in the browser's own zone (the entry then gives none)", async () => {
    let renders = 0;
    function Counted() {
      const zone = useTimeZone();
      renders += 1;
      return <p>{formatDate(at, 'date-time', zone)}</p>;
    }
    const html = renderToString(<Counted />);
    renders = 0;
    const { container, errors } = await hydrateDrawn(html, <Counted />);
    expect(errors).toEqual([]);
    expect(renders).toBe(1);
    expect(container.textContent).toBe(formatDate(at, 'date-time'));
  });

  it("is the browser's own zone in a page the browser draws alone", async () => {
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => {
      createRoot(container).render(
        <ReaderTimeZone value={drawnIn}>
          <When />
        </ReaderTimeZone>,
      );
    });
    expect(container.textContent).toBe(formatDate(at, 'date-time'));
  });

  it("gives the zone a page was drawn in to hydrate with only when it is another zone than the browser's", () => {
    const before = process.env.TZ;
    try {
      // The browser in India, under the zone's current name; the server's engine may spell it 'Asia/Calcutta'.
      process.env.TZ = 'Asia/Kolkata';
      expect(drawnInAnotherZone('Asia/Calcutta')).toBeUndefined();
      expect(drawnInAnotherZone('Asia/Kolkata')).toBeUndefined();
      expect(drawnInAnotherZone('asia/kolkata')).toBeUndefined();
      expect(drawnInAnotherZone(undefined)).toBeUndefined();
      expect(drawnInAnotherZone('Mars/Olympus')).toBeUndefined();
      expect(drawnInAnotherZone('Europe/Paris')).toBe('Europe/Paris');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
