// @vitest-environment happy-dom
import { notifications } from '@mantine/notifications';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { hideToast, showToast, toastsAsked } from '../lib/toasts.ts';
import { AppProvider } from './provider.tsx';

afterEach(() => {
  act(() => notifications.clean());
  cleanup();
});

const renderApp = () =>
  render(
    <AppProvider>
      <p>The page</p>
    </AppProvider>,
  );

// In this order: the toast host is loaded once for the whole file, as for a visit.
describe('the toasts', () => {
  it('load with the first toast: taking one away before asks for nothing', async () => {
    renderApp();
    hideToast('selection-required');
    expect(toastsAsked()).toBe(false);
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();

    act(() => showToast({ color: 'red', title: 'Selection Required', message: 'Please select a proxy type.' }));
    expect(toastsAsked()).toBe(true);
    // The host's code loads first (a chunk of its own in the build).
    expect(await screen.findByText('Selection Required', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('show and take away what was asked before the host was on screen, in order', async () => {
    act(() => {
      showToast({ id: 'gone', message: 'Taken away before it showed' });
      hideToast('gone');
      showToast({ message: 'Order cancelled' });
    });
    renderApp();
    expect(await screen.findByText('Order cancelled', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Taken away before it showed')).toBeNull();
  });
});
