// @vitest-environment happy-dom
import { authMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { NewPasswordForm } from './new-password-form.tsx';

afterEach(cleanup);

describe('NewPasswordForm (reset and change password)', () => {
  it('holds a new password to the one rule, in the same words as sign-up and the server', async () => {
    const onSubmit = vi.fn(async () => {});
    renderWithApp(<NewPasswordForm submitLabel="Update Password" onSubmit={onSubmit} />);
    const password = screen.getByLabelText(/^New password/);
    const confirm = screen.getByLabelText(/^Confirm new password/);
    const submit = screen.getByRole('button', { name: 'Update Password' });
    for (const [typed, message] of [
      ['12345', 'Password must be at least 8 characters'],
      ['abcdef', 'Password must be at least 8 characters'],
      ['abcdefgh', authMessages.needsUppercase],
    ] as const) {
      fireEvent.change(password, { target: { value: typed } });
      fireEvent.change(confirm, { target: { value: typed } });
      fireEvent.click(submit);
      expect(await screen.findByText(message)).toBeTruthy();
      expect(screen.queryByText(/at least 6/)).toBeNull();
    }
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(password, { target: { value: 'N3wpass!' } });
    fireEvent.change(confirm, { target: { value: 'N3wpass!' } });
    fireEvent.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('N3wpass!'));
  });
});
