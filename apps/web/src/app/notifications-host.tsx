// Its own Mantine styles: the host loads on any page with its first toast, the landing's included, which does not load
// app-mantine.ts.
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { useMediaQuery } from '@mantine/hooks';
import { type NotificationData, Notifications, notifications, useNotifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { subscribeToToasts, takeToastRequests } from '../lib/toasts.ts';
import classes from './notifications-host.module.css';

/** The spec's mobile breakpoint (768px), where the dashboard collapses to a burger menu. */
const NARROW = '(max-width: 48em)';

/** What a toast is about: its colour and words. Two toasts alike tell the same thing; one with other content has none. */
function causeOf(toast: NotificationData): string | undefined {
  const { title, message, color } = toast;
  if (typeof message !== 'string' || (title !== undefined && typeof title !== 'string')) return undefined;
  return JSON.stringify([color ?? '', title ?? '', message]);
}

/**
 * One toast per cause: a toast that tells what one on screen already tells replaces it (and runs its full time again),
 * so pressing a button three times shows one 'Selection Required', not a stack over the page's controls.
 */
function useOneToastPerCause() {
  const { notifications: shown, queue } = useNotifications();
  const seen = useRef(new Set<string>());
  const latestByCause = useRef(new Map<string, string>());
  useEffect(() => {
    const present = [...shown, ...queue];
    const presentIds = new Set(present.map((toast) => toast.id));
    for (const toast of present) {
      const id = toast.id;
      if (id === undefined || seen.current.has(id)) continue;
      seen.current.add(id);
      const cause = causeOf(toast);
      if (cause === undefined) continue;
      const earlier = latestByCause.current.get(cause);
      if (earlier !== undefined && presentIds.has(earlier)) notifications.hide(earlier);
      latestByCause.current.set(cause, id);
    }
    // Forget the toasts that have gone, so the bookkeeping stays as small as the screen.
    for (const id of seen.current) if (!presentIds.has(id)) seen.current.delete(id);
    for (const [cause, id] of latestByCause.current) if (!presentIds.has(id)) latestByCause.current.delete(cause);
  }, [shown, queue]);
}

/**
 * Shows and takes away the toasts asked for (lib/toasts.ts): those asked for before the host was on screen as it
 * mounts, after Mantine's host (a child, whose effects run first), so they slide in as any later one does.
 */
function useToastRequests() {
  useEffect(() => {
    const take = () => {
      for (const request of takeToastRequests()) {
        if ('show' in request) notifications.show(request.show);
        else notifications.hide(request.hide);
      }
    };
    take();
    return subscribeToToasts(take);
  }, []);
}

/**
 * Toasts: closed after 4000 ms, at most 5 shown and the rest queued, bottom-right (spec section 9). On a phone a toast
 * spans the screen's width, so at the bottom it covered the page's last controls (Checkout, a form's button): there they
 * show at the top, below the dashboard's header bar.
 */
export default function NotificationsHost() {
  useOneToastPerCause();
  useToastRequests();
  // Known as it mounts (the host is drawn in the browser only, never by the server): the first toast, shown as the
  // host mounts, starts where it stays.
  const narrow = useMediaQuery(NARROW, undefined, { getInitialValueInEffect: false });
  return (
    <Notifications
      position={narrow ? 'top-center' : 'bottom-right'}
      autoClose={4000}
      limit={5}
      classNames={{ root: classes.root }}
    />
  );
}
