// @vitest-environment happy-dom
import { authMessages, passwordChangeMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ChangePasswordDialog } from './change-password-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const typeBoth = (password: string, confirm = password) => {
  fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
};

describe('Settings: Change Password', () => {
  it("sends the new password once it keeps the rule, says 'Password updated!', and 'Change Again' gives empty fields", async () => {
    const calls = fakeApi({ 'POST /api/user/password': () => ({ body: { message: 'ok' } }) });
    renderWithApp(<ChangePasswordDialog opened onClose={() => {}} />);
    typeBoth('short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls).toEqual([]);

    typeBoth('N3wpass!');
    expect(await screen.findByText('Your other devices have been signed out.')).toBeTruthy();
    expect(screen.getAllByText(authMessages.passwordUpdated).length).toBeGreaterThan(0);
    expect(calls).toEqual([{ method: 'POST', path: '/api/user/password', body: { newPassword: 'N3wpass!' } }]);

    fireEvent.click(screen.getByRole('button', { name: 'Change Again' }));
    expect((screen.getByLabelText(/^New password/) as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal in the dialog and stays on the form", async () => {
    fakeApi({
      'POST /api/user/password': () => ({
        status: 400,
        body: { message: 'Choose a password you have not used here.' },
      }),
    });
    renderWithApp(<ChangePasswordDialog opened onClose={() => {}} />);
    typeBoth('N3wpass!');
    expect(await screen.findByText('Choose a password you have not used here.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeTruthy();
  });
});

describe('Settings: Change Password after an older sign-in', () => {
  it('shows the current password field when the server asks for it, then the code field, and sends them', async () => {
    const answers = [
      { status: 400, body: { message: passwordChangeMessages.currentPasswordRequired } },
      { status: 400, body: { message: passwordChangeMessages.codeRequired } },
      { body: { message: 'ok' } },
    ];
    const calls = fakeApi({ 'POST /api/user/password': () => answers.shift() ?? { status: 500, body: {} } });
    renderWithApp(<ChangePasswordDialog opened onClose={() => {}} />);
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    typeBoth('N3wpass!');
    expect(await screen.findByText(passwordChangeMessages.currentPasswordRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'Old!pass1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(passwordChangeMessages.codeRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Authentication code/), { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your other devices have been signed out.')).toBeTruthy();
    expect(calls.map((call) => call.body)).toEqual([
      { newPassword: 'N3wpass!' },
      { newPassword: 'N3wpass!', currentPassword: 'Old!pass1' },
      { newPassword: 'N3wpass!', currentPassword: 'Old!pass1', code: '123456' },
    ]);
  });
});
