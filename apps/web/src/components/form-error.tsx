import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red alert on a form that carries the auth service's own message (spec section 8 'Authentication'). */
export function FormError({ message, onClose }: { message: string | null; onClose?: () => void }) {
  if (!message) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} aria-hidden />}
      role="alert"
      withCloseButton={onClose !== undefined}
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      {message}
    </Alert>
  );
}
