import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { paths } from '@storefront/contract';
import { IconMailCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { site } from '../../../config/site.ts';
import { AuthLayout } from './auth-layout.tsx';

/** 'Check Your Email' after a form that mails a link (password reset, sign-up confirmation). */
export function CheckEmail({ children, onTryAgain }: { children: ReactNode; onTryAgain: () => void }) {
  return (
    <AuthLayout title="Check Your Email">
      <Stack gap="md" align="stretch">
        <ThemeIcon size={48} radius="xl" color="green" variant="light" mx="auto">
          <IconMailCheck size={28} aria-hidden />
        </ThemeIcon>
        <Text ta="center" style={{ overflowWrap: 'anywhere' }}>
          {children}
        </Text>
        <Text size="sm" c="dimmed" ta="center">
          {site.mailsInLog
            ? "This shop has no mail server set up (SMTP_URL), so nothing is sent: the link is in the server's output, on a line starting 'link in the e-mail to'."
            : 'Nothing arrived? Check your spam folder, or try again.'}
        </Text>
        <Button variant="default" onClick={onTryAgain}>
          Try Again
        </Button>
        <Button component={Link} to={paths.login}>
          Back to Login
        </Button>
      </Stack>
    </AuthLayout>
  );
}
