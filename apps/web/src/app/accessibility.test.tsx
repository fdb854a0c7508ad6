// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../components/copy-button.tsx';
import { LiveAnnouncer } from '../lib/announce.tsx';
import { renderWithApp } from '../test/render.tsx';
import { FocusHeadingOnNavigation } from './focus-on-navigation.tsx';
import { theme } from './theme.ts';

afterEach(() => {
  act(() => notifications.clean());
  cleanup();
  vi.restoreAllMocks();
});

describe('accessible names and announcements from the theme and the shared components', () => {
  it("a copy button's 'Copied' reaches the live region, every time", async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(() => Promise.resolve()) },
      configurable: true,
    });
    render(
      <MantineProvider theme={theme}>
        <LiveAnnouncer />
        <CopyButton value="1.2.3.4:8000:user:pass" timeout={50}>
          {({ copied, copy }) => (
            <button type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy all'}
            </button>
          )}
        </CopyButton>
      </MantineProvider>,
    );
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Copy all' }));
    await waitFor(() => expect(region.textContent).toBe('Copied'));
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith('1.2.3.4:8000:user:pass');
    // A second copy changes the region's text again (a screen reader reads only a change).
    await screen.findByRole('button', { name: 'Copy all' });
    fireEvent.click(screen.getByRole('button', { name: 'Copy all' }));
    await waitFor(() => expect(region.textContent).toBe('Copied\u00a0'));
  });

  it("a toast's close button has a name", async () => {
    renderWithApp(<div />);
    act(() => void notifications.show({ title: 'Selection Required', message: 'Please select a proxy type.' }));
    const toast = await screen.findByRole('alert');
    expect(toast.querySelector('button')?.getAttribute('aria-label')).toBe('Close');
  });
});

describe('focus after a route change', () => {
  it("goes to the new page's heading, not on the first page", async () => {
    render(
      <MemoryRouter initialEntries={['/one']}>
        <FocusHeadingOnNavigation />
        <Routes>
          <Route
            path="/one"
            element={
              <main>
                <h1>One</h1>
                <Link to="/two">Two</Link>
              </main>
            }
          />
          <Route
            path="/two"
            element={
              <main>
                <h1>Two</h1>
              </main>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    expect(document.activeElement).toBe(document.body);
    const link = screen.getByRole('link', { name: 'Two' });
    link.focus();
    fireEvent.click(link);
    const heading = await screen.findByRole('heading', { name: 'Two' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });
  it("waits for the page's own heading, not the one its loading skeleton draws", async () => {
    function SlowPage() {
      const [loaded, setLoaded] = useState(false);
      useEffect(() => {
        const timer = setTimeout(() => setLoaded(true), 20);
        return () => clearTimeout(timer);
      }, []);
      return loaded ? (
        <h1>Two</h1>
      ) : (
        <div data-page-skeleton>
          <h1>Two</h1>
        </div>
      );
    }
    render(
      <MemoryRouter initialEntries={['/one']}>
        <FocusHeadingOnNavigation />
        <Routes>
          <Route path="/one" element={<Link to="/two">Two</Link>} />
          <Route
            path="/two"
            element={
              <main>
                <SlowPage />
              </main>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Two' });
    link.focus();
    fireEvent.click(link);
    expect(document.activeElement).not.toBe(screen.getByRole('heading', { name: 'Two' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Two' }).closest('[data-page-skeleton]')).toBeNull(),
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Two' })));
  });
});
