// @vitest-environment happy-dom
import { authMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

// better-auth's client cannot be loaded (its file missing after a release, the network gone): every try fails.
vi.mock('../../../lib/load-auth-client.ts', () => ({
  loadAuthClient: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  usePreloadAuthClient: () => {},
}));

afterEach(cleanup);

it("Settings' two-factor card says the sign-in service cannot be reached, not that the password is wrong", async () => {
  renderWithApp(<TwoFactorCard enabled={false} onChanged={async () => {}} />);
  fireEvent.click(screen.getByRole('button', { name: 'Set Up Two-Factor' }));
  fireEvent.change(await screen.findByLabelText(/^Password/, {}, { timeout: 5000 }), {
    target: { value: 'Str0ng!pass' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByText(authMessages.authClientUnavailable)).toBeTruthy();
  // Not left waiting: the button can be pressed again.
  expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false);
});
