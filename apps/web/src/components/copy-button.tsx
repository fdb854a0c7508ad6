import { useClipboard } from '@mantine/hooks';
import { type ReactNode, useEffect } from 'react';
import { announce } from '../lib/announce.tsx';

interface CopyButtonProps {
  value: string;
  /** How long `copied` stays true, in ms (Mantine's CopyButton's default). */
  timeout?: number;
  children: (payload: { copied: boolean; copy: () => void }) => ReactNode;
}

/**
 * Mantine's CopyButton, and a screen reader hears "Copied" too: the button's new word alone is not read out, so the
 * confirmation goes through the app's live region as well.
 */
export function CopyButton({ value, timeout = 1000, children }: CopyButtonProps) {
  const clipboard = useClipboard({ timeout });
  useEffect(() => {
    if (clipboard.copied) announce('Copied');
  }, [clipboard.copied]);
  return children({ copied: clipboard.copied, copy: () => clipboard.copy(value) });
}
