import type { NotificationData } from '@mantine/notifications';

// The app's toasts, asked for here and shown by the toast host (app/notifications-host.tsx with Mantine's notification
// system), which loads when the first toast is asked for: no page needs it to show, and most visits show no toast.
// Requests made before the host is on screen wait here, in order, and it takes them as it mounts.

/** A toast to show, or the id of one to take away. */
export type ToastRequest = { show: NotificationData } | { hide: string };

let waiting: ToastRequest[] = [];
let asked = false;
const listeners = new Set<() => void>();

function ask(request: ToastRequest) {
  waiting.push(request);
  asked = true;
  for (const listener of listeners) listener();
}

/** Shows a toast (Mantine's notification data: colour, title, message, an id to take it away by). */
export function showToast(toast: NotificationData): void {
  ask({ show: toast });
}

/** Takes away the toast with this id, if it shows or waits. Before any toast was asked for there is none: a no-op. */
export function hideToast(id: string): void {
  if (asked) ask({ hide: id });
}

/**
 * A toast is about to be asked for (a checkout that says it started, then leaves the page): the host loads and mounts
 * now, so that the toast shows at once when asked for.
 */
export function prepareToasts(): void {
  if (asked) return;
  asked = true;
  for (const listener of listeners) listener();
}

/** Whether a toast has been asked for (or prepared): from then on the toast host is mounted. */
export const toastsAsked = (): boolean => asked;

/** Calls `listener` on every request; returns the unsubscription. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The requests not taken yet, in the order they were made; taking them empties the queue. */
export function takeToastRequests(): ToastRequest[] {
  const taken = waiting;
  waiting = [];
  return taken;
}
