// @vitest-environment happy-dom
import { twoFactorMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { TwoFactorStep } from './two-factor-step.tsx';

// better-auth's client keeps the fetch of its creation: its two-factor calls are replaced here instead.
const twoFactor = vi.hoisted(() => ({ verifyTotp: vi.fn(), verifyBackupCode: vi.fn() }));
vi.mock('../../../lib/auth-client.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/auth-client.ts')>();
  return { ...actual, authClient: { ...actual.authClient, twoFactor } };
});

beforeEach(() => {
  for (const call of Object.values(twoFactor)) call.mockReset();
});
afterEach(cleanup);

const verify = () => fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

describe("Sign-in's two-factor step", () => {
  it("asks for the app's six digits, and keeps saying so until Verify is pressed again", async () => {
    twoFactor.verifyTotp.mockResolvedValue({ data: { token: 't' }, error: null });
    const onVerified = vi.fn(async () => {});
    renderWithApp(<TwoFactorStep onVerified={onVerified} onCancel={() => {}} />);
    verify();
    expect((await screen.findByRole('alert')).textContent).toBe(twoFactorMessages.codeRequired);
    const digits = screen.getAllByRole('textbox').filter((input) => input.getAttribute('inputmode') === 'numeric');
    fireEvent.change(digits[0] as HTMLElement, { target: { value: '1' } });
    expect(screen.getByRole('alert').textContent).toBe(twoFactorMessages.codeRequired);
    expect(twoFactor.verifyTotp).not.toHaveBeenCalled();

    digits.slice(1).forEach((input, index) => {
      fireEvent.change(input, { target: { value: String(index + 2) } });
    });
    verify();
    await waitFor(() => expect(onVerified).toHaveBeenCalledTimes(1));
    expect(twoFactor.verifyTotp).toHaveBeenCalledWith({ code: '123456', trustDevice: false });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("takes a backup code instead, trimmed, with the device trusted, and shows the service's refusal", async () => {
    twoFactor.verifyBackupCode
      .mockResolvedValueOnce({ data: null, error: { message: 'Invalid backup code' } })
      .mockResolvedValueOnce({ data: { token: 't' }, error: null });
    const onVerified = vi.fn(async () => {});
    renderWithApp(<TwoFactorStep onVerified={onVerified} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Use a backup code' }));
    const field = screen.getByRole('textbox', { name: 'Backup code' });
    fireEvent.change(field, { target: { value: ' abcd ' } });
    verify();
    expect((await screen.findByRole('alert')).textContent).toBe(twoFactorMessages.backupCodeRequired);

    fireEvent.change(field, { target: { value: ' aaaa-1111 ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Trust this device for 30 days' }));
    verify();
    expect(await screen.findByText('Invalid backup code')).toBeTruthy();
    expect(onVerified).not.toHaveBeenCalled();
    verify();
    await waitFor(() => expect(onVerified).toHaveBeenCalledTimes(1));
    expect(twoFactor.verifyBackupCode).toHaveBeenLastCalledWith({ code: 'aaaa-1111', trustDevice: true });

    fireEvent.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(screen.queryByRole('textbox', { name: 'Backup code' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
