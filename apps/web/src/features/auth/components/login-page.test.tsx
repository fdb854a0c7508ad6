// @vitest-environment happy-dom
import { authMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { LoginPage } from './login-page.tsx';

// better-auth's client cannot be loaded (its file missing after a release, the network gone): every try fails.
vi.mock('../../../lib/load-auth-client.ts', () => ({
  loadAuthClient: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  usePreloadAuthClient: () => {},
}));

beforeEach(() => {
  fakeApi({ 'GET /api/user/auth': () => ({ body: { authenticated: false, user: null } }) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('the sign-in form says in words that the sign-in service cannot be reached, and can be sent again', async () => {
  renderWithApp(<LoginPage />);
  fireEvent.change(screen.getByRole('textbox', { name: /^Email/ }), { target: { value: 'ann@example.com' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Str0ng!pass' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  expect((await screen.findByRole('alert')).textContent).toBe(authMessages.authClientUnavailable);
  expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(false);
});
