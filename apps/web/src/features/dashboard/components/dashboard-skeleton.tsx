import { Box, Skeleton, Stack, Text, Title } from '@mantine/core';
import { pageHeadingOf } from '../../../lib/page-headings.ts';

/**
 * What the page area shows while the session or the page's code loads: the page's own heading when it has one
 * (PAGE_HEADINGS, the same the page then draws in the same place), 'Loading...' (spec section 2), and grey shapes where
 * the page's cards go, so the frame is drawn at once and nothing jumps when the page arrives. The focus that follows a
 * change of page waits for the page's own heading, not this one (`data-page-skeleton`, app/focus-on-navigation.tsx).
 */
export function PageSkeleton({ pathname }: { pathname: string }) {
  const heading = pageHeadingOf(pathname);
  return (
    <Stack gap="lg" data-page-skeleton>
      {heading ? (
        <div>
          <Title order={1} size="h2">
            {heading.title}
          </Title>
          {heading.intro && (
            <Text c="dimmed" size="sm" mt={4}>
              {heading.intro}
            </Text>
          )}
        </div>
      ) : (
        <Skeleton h={32} w={220} maw="100%" radius="sm" animate={false} />
      )}
      <Text c="dimmed" role="status">
        Loading...
      </Text>
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
