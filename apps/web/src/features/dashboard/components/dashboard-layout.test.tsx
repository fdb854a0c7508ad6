// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { AUTH_LOADING_TIMEOUT_MS, DashboardLayout } from './dashboard-layout.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const app = (
  <Routes>
    <Route path="/dashboard" element={<DashboardLayout />}>
      <Route path="overview" element={<h1>Overview page</h1>} />
    </Route>
    <Route path="/login" element={<h1>Sign-in page</h1>} />
  </Routes>
);

describe('the dashboard frame', () => {
  it("shows 'Loading...' while the session loads, and the sign-in page once 2000 ms have passed without one", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A session check that never answers.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderWithApp(app, { route: '/dashboard/overview' });
    expect(screen.getAllByText('Loading...').length).toBeGreaterThan(0);
    await act(async () => {
      vi.advanceTimersByTime(AUTH_LOADING_TIMEOUT_MS - 1);
    });
    expect(screen.queryByRole('heading', { name: 'Sign-in page' })).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('heading', { name: 'Sign-in page' })).toBeTruthy();
  });

  it('shows the page, the navigation and the account once the session is known, and keeps them past 2000 ms', async () => {
    // Timers faked from the start, so that a 2000 ms timer started while the session loaded is one this test moves on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    fakeApi({
      'GET /api/user/auth': () => ({
        body: { authenticated: true, user: { id: 'u1', email: 'admin@example.com', role: 'admin' } },
      }),
    });
    renderWithApp(app, { route: '/dashboard/overview' });
    expect(await screen.findByRole('heading', { name: 'Overview page' })).toBeTruthy();
    expect(screen.getByTestId('sidebar-email').textContent).toBe('admin@example.com');
    expect(screen.getByRole('link', { name: 'Admin' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('data-active')).toBe('true');
    await act(async () => {
      vi.advanceTimersByTime(AUTH_LOADING_TIMEOUT_MS + 100);
    });
    expect(screen.getByRole('heading', { name: 'Overview page' })).toBeTruthy();
  });

  it('sends a visitor without a session to the sign-in page', async () => {
    fakeApi({ 'GET /api/user/auth': () => ({ body: { authenticated: false, user: null } }) });
    renderWithApp(app, { route: '/dashboard/overview' });
    expect(await screen.findByRole('heading', { name: 'Sign-in page' })).toBeTruthy();
  });
});
