// @vitest-environment happy-dom
import { authMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { SignupPage } from './signup-page.tsx';

// better-auth's client keeps the fetch of its creation: the sign-up call is replaced here instead.
const signUpEmail = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/auth-client.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/auth-client.ts')>();
  return { ...actual, authClient: { ...actual.authClient, signUp: { email: signUpEmail } } };
});

beforeEach(() => {
  signUpEmail.mockReset();
  fakeApi({ 'GET /api/user/auth': () => ({ body: { authenticated: false, user: null } }) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const fill = (email: string, password = 'Str0ng!pass') => {
  fireEvent.change(screen.getByRole('textbox', { name: /^Email/ }), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
};

describe('SignupPage', () => {
  it('refuses an address the server would refuse, with the spec sentence and without sending it', async () => {
    renderWithApp(<SignupPage />);
    fill('a@b');
    expect(await screen.findByText(authMessages.invalidEmail)).toBeTruthy();
    expect(signUpEmail).not.toHaveBeenCalled();
  });

  it("never shows the auth service's field paths or schema wording", async () => {
    signUpEmail.mockResolvedValue({
      data: null,
      error: {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: '[body.name] Invalid input: expected string, received undefined',
      },
    });
    renderWithApp(<SignupPage />);
    fill('new@example.com');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Sign-up failed. Please try again.');
    expect(screen.queryByText(/\[body\./)).toBeNull();
  });

  it("shows the auth service's own sentences as they are", async () => {
    signUpEmail.mockResolvedValue({ data: null, error: { status: 400, message: authMessages.needsSpecial } });
    renderWithApp(<SignupPage />);
    fill('new@example.com', 'Str0ngpass1');
    // The form checks first; a sentence from the server would be shown as written.
    expect(await screen.findByText(authMessages.needsSpecial)).toBeTruthy();
  });
});
