// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { AdminRoute } from './admin-route.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedInAs = (role: 'admin' | 'customer') =>
  fakeApi({
    'GET /api/user/auth': () => ({
      body: { authenticated: true, user: { id: 'u1', email: `${role}@example.com`, role } },
    }),
  });

/** The console stand-in: the real one is a lazy chunk, asked for only when this renders. */
const Console = vi.fn(() => <h1>Admin Dashboard</h1>);

describe('the admin route', () => {
  it("shows a customer the spec's Access Denied and never renders the console", async () => {
    Console.mockClear();
    signedInAs('customer');
    renderWithApp(<AdminRoute console={Console} />, { route: '/dashboard/admin' });
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(
      screen.getByText("You don't have permission to access this page. Administrator privileges are required."),
    ).toBeTruthy();
    expect(document.title).toMatch(/^Admin \| /);
    expect(Console).not.toHaveBeenCalled();
  });

  it('renders the console for an administrator, and nothing of it while the session loads', async () => {
    Console.mockClear();
    signedInAs('admin');
    renderWithApp(<AdminRoute console={Console} />, { route: '/dashboard/admin' });
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeTruthy();
    expect(screen.queryByText('Access Denied')).toBeNull();
  });
});
