// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { LazyModal } from './lazy-dialog.tsx';

afterEach(cleanup);

describe('a dialog loaded when it first opens', () => {
  it('draws nothing while closed, opens once its code has come, and closes as a Modal does', async () => {
    const dialog = (opened: boolean) => (
      <LazyModal opened={opened} onClose={() => {}} title="Delete coupon?">
        The coupon stops working at once.
      </LazyModal>
    );
    const { rerender } = renderWithApp(dialog(false));
    expect(screen.queryByRole('dialog')).toBeNull();

    rerender(dialog(true));
    expect(await screen.findByRole('dialog', { name: 'Delete coupon?' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('The coupon stops working at once.')).toBeTruthy();

    rerender(dialog(false));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
