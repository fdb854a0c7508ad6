import { Box, Skeleton, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * True while React hydrates the page the server rendered (and on the server itself), false afterwards and in a page
 * the browser renders alone. The dashboard draws what the server drew (its frame and a skeleton) until then, whatever
 * the browser already knows (the session may have arrived first), so hydration never mismatches.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}

/**
 * What the page area shows while the session or the page's code loads: 'Loading...' (spec section 2) above grey
 * shapes where a page's heading and cards go, so the frame is drawn at once and nothing jumps when the page arrives.
 */
export function PageSkeleton() {
  return (
    <Stack gap="lg">
      <Text c="dimmed" role="status">
        Loading...
      </Text>
      <Skeleton h={32} w={220} maw="100%" radius="sm" animate={false} />
      <Box
        style={{
          display: 'grid',
          gap: 'var(--mantine-spacing-md)',
          gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
        }}
      >
        <Skeleton h={104} radius="md" animate={false} />
        <Skeleton h={104} radius="md" animate={false} />
        <Skeleton h={104} radius="md" animate={false} />
        <Skeleton h={104} radius="md" animate={false} />
      </Box>
      <Skeleton h={220} radius="md" animate={false} />
    </Stack>
  );
}

/** The account corner of the navigation (who is signed in, Sign Out) while the session loads. */
export function AccountSkeleton() {
  return (
    <Stack gap={6} aria-hidden>
      <Skeleton h={12} w={80} animate={false} />
      <Skeleton h={18} w="80%" animate={false} />
      <Skeleton h={36} mt={4} animate={false} />
    </Stack>
  );
}
