import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Toasts: bottom-right, closed after 4000 ms, at most 5 shown and the rest queued (spec section 9). */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" autoClose={4000} limit={5} />;
}
