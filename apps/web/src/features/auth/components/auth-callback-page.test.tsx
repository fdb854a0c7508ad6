// @vitest-environment happy-dom
import { confirmationMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { AuthCallbackPage } from './auth-callback-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOKEN = `x.${btoa(JSON.stringify({ email: 'ann@example.com' }))}.y`;
const confirm = () => fireEvent.click(screen.getByRole('button', { name: 'Confirm and sign in' }));

describe('the confirmation page', () => {
  it('asks for the password the account was signed up with before it sends anything', async () => {
    const calls = fakeApi({});
    renderWithApp(<AuthCallbackPage />, { route: `/auth/callback?token=${TOKEN}` });
    expect(screen.getByText('ann@example.com')).toBeTruthy();
    confirm();
    expect(await screen.findByText(confirmationMessages.passwordRequired)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("posts the token with the password, and shows the server's refusal in its words", async () => {
    const calls = fakeApi({
      'POST /api/auth/confirm-email': () => ({
        status: 400,
        body: { code: 'WRONG_PASSWORD', message: confirmationMessages.wrongPassword },
      }),
    });
    renderWithApp(<AuthCallbackPage />, { route: `/auth/callback?token=${TOKEN}` });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Not!the1password' } });
    confirm();
    expect((await screen.findByRole('alert')).textContent).toBe(confirmationMessages.wrongPassword);
    await waitFor(() =>
      expect(calls).toEqual([
        {
          method: 'POST',
          path: '/api/auth/confirm-email',
          body: { token: TOKEN, password: 'Not!the1password' },
        },
      ]),
    );
  });
});
