// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import NotificationsHost from './notifications-host.tsx';
import { theme } from './theme.ts';

afterEach(() => {
  act(() => notifications.clean());
  cleanup();
});

const renderHost = () =>
  render(
    <MantineProvider theme={theme}>
      <NotificationsHost />
    </MantineProvider>,
  );
const selectionRequired = {
  color: 'red',
  title: 'Selection Required',
  message: 'Please select a proxy type and bundle before checkout.',
};

describe('the toast host', () => {
  it('shows one toast per cause: the same toast again replaces the one on screen', async () => {
    renderHost();
    for (let press = 0; press < 3; press++) act(() => void notifications.show(selectionRequired));
    await waitFor(() => expect(screen.getAllByText('Selection Required')).toHaveLength(1));
  });

  it('keeps toasts about different things', async () => {
    renderHost();
    act(() => void notifications.show(selectionRequired));
    act(() => void notifications.show({ color: 'red', title: 'Checkout Error', message: 'This coupon has expired.' }));
    act(() => void notifications.show({ color: 'red', title: 'Checkout Error', message: 'This coupon is used up.' }));
    expect(await screen.findByText('This coupon is used up.')).toBeTruthy();
    expect(screen.getByText('This coupon has expired.')).toBeTruthy();
    expect(screen.getAllByText('Selection Required')).toHaveLength(1);
  });
});
