import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red alert with a server's own message: the auth service's on the sign-in forms (spec section 8), the API's elsewhere. */
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
