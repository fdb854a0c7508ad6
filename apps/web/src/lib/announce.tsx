import { VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';

type Listener = (message: string) => void;
const listeners = new Set<Listener>();

/**
 * Says `message` to screen readers through the app's one polite live region (LiveAnnouncer): for confirmations that
 * change a control's words only, such as a copy button's "Copied", which a screen reader does not read out by itself.
 */
export function announce(message: string): void {
  for (const listener of listeners) listener(message);
}

/**
 * The live region `announce` writes to, mounted once with the app and present from the first render (a region added
 * together with its words is often not read). The same words twice in a row are read twice: every other message ends
 * with a no-break space, so the region's text always changes.
 */
export function LiveAnnouncer() {
  const [message, setMessage] = useState({ text: '', count: 0 });
  useEffect(() => {
    const listener: Listener = (text) => setMessage((previous) => ({ text, count: previous.count + 1 }));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="live-announcer">
      {message.count % 2 === 1 ? message.text : message.text && `${message.text}\u00a0`}
    </VisuallyHidden>
  );
}
