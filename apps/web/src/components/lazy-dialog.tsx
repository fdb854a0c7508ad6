import type { ModalProps } from '@mantine/core';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';

/**
 * A dialog (a component drawing a Mantine Modal open while `opened`) whose module loads when it first opens: no page
 * needs a dialog's code to show. Until then it draws nothing, as a closed Modal does. Once loaded it mounts closed and
 * opens on its next render, so that the Modal slides in and takes the focus as one already on the page does, and it
 * stays mounted, so that it slides out as it closes.
 */
export function lazyDialog<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  function Opening(props: P) {
    const [mounted, setMounted] = useState(false);
    useEffect(() => setMounted(true), []);
    return <Dialog {...props} opened={props.opened && mounted} />;
  }
  return function LazyDialog(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    return wanted ? (
      <Suspense fallback={null}>
        <Opening {...props} />
      </Suspense>
    ) : null;
  };
}

/**
 * Mantine's Modal, loaded when it first opens (the same props): for a dialog drawn by a component the page draws
 * anyway, whose content is small beside the Modal's own code.
 */
export const LazyModal = lazyDialog<ModalProps>(async () => (await import('./modal.ts')).Modal);
