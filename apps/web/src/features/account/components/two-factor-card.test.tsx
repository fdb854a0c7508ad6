// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

// better-auth's client keeps the fetch of its creation: its two-factor calls are replaced here instead.
const twoFactor = vi.hoisted(() => ({ enable: vi.fn(), disable: vi.fn(), verifyTotp: vi.fn() }));
vi.mock('../../../lib/auth-client.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/auth-client.ts')>();
  return { ...actual, authClient: { ...actual.authClient, twoFactor } };
});

beforeEach(() => {
  for (const call of Object.values(twoFactor)) call.mockReset();
});
afterEach(cleanup);

// The dialog's code loads when it first opens (a chunk of its own): the first wait for its field allows for that.
const continueWith = async (password: string) => {
  fireEvent.change(await screen.findByLabelText(/^Password/, {}, { timeout: 5000 }), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
};

describe('Settings: two-factor authentication', () => {
  it('asks for the password, shows the key and backup codes, and turns on with a 6-digit code', async () => {
    twoFactor.enable.mockResolvedValue({
      data: {
        method: 'totp',
        totpURI: 'otpauth://totp/Shop:ann@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shop',
        backupCodes: ['aaaa-1111', 'bbbb-2222'],
      },
      error: null,
    });
    twoFactor.verifyTotp.mockResolvedValue({ data: { status: true }, error: null });
    const onChanged = vi.fn(async () => {});
    renderWithApp(<TwoFactorCard enabled={false} onChanged={onChanged} />);
    fireEvent.click(screen.getByRole('button', { name: 'Set Up Two-Factor' }));
    await continueWith('');
    expect(await screen.findByText('Enter your password')).toBeTruthy();
    expect(twoFactor.enable).not.toHaveBeenCalled();

    await continueWith('Str0ng!pass');
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(twoFactor.enable).toHaveBeenCalledWith({ password: 'Str0ng!pass' });
    expect(screen.getByTestId('backup-codes').textContent).toBe('aaaa-1111\nbbbb-2222');

    fireEvent.click(screen.getByRole('button', { name: 'Verify and Turn On' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(twoFactor.verifyTotp).not.toHaveBeenCalled();

    const digits = screen.getAllByRole('textbox').filter((input) => input.getAttribute('inputmode') === 'numeric');
    digits.forEach((input, index) => {
      fireEvent.change(input, { target: { value: String(index + 1) } });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Turn On' }));
    expect(await screen.findByText('Two-factor authentication is on')).toBeTruthy();
    expect(twoFactor.verifyTotp).toHaveBeenCalledWith({ code: '123456' });
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
  });

  it("turns off with the password, and shows the service's words when it is wrong", async () => {
    twoFactor.disable
      .mockResolvedValueOnce({ data: null, error: { message: 'Invalid password' } })
      .mockResolvedValueOnce({ data: { status: true }, error: null });
    const onChanged = vi.fn(async () => {});
    renderWithApp(<TwoFactorCard enabled onChanged={onChanged} />);
    fireEvent.click(screen.getByRole('button', { name: 'Turn Off' }));
    await continueWith('wrong');
    expect(await screen.findByText('Invalid password')).toBeTruthy();
    expect(onChanged).not.toHaveBeenCalled();

    await continueWith('Str0ng!pass');
    expect(await screen.findByText('Two-factor authentication turned off')).toBeTruthy();
    expect(twoFactor.disable).toHaveBeenLastCalledWith({ password: 'Str0ng!pass' });
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
  });
});
