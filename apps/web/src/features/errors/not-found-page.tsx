import { Button, Container, Group, Text, Title } from '@mantine/core';
import { paths } from '@storefront/contract';
import { Link, useLocation } from 'react-router';
import { SimplePageLayout } from '../../components/simple-page-layout.tsx';
import { site } from '../../config/site.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

export function NotFoundPage() {
  const location = useLocation();
  usePageTitle('Page not found');

  return (
    <SimplePageLayout>
      <Container size="sm" ta="center" py={60}>
        <Text fz={96} fw={900} c="blue" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1} mt="md">
          Page not found
        </Title>
        <Text c="dimmed" mt="md">
          There is no page at <code>{location.pathname}</code>. It may have moved, or the link may be mistyped.
        </Text>
        <Group justify="center" mt="xl">
          <Button component={Link} to={paths.home}>
            Back to the home page
          </Button>
          <Button
            component="a"
            href={site.chatCommunityUrl}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
          >
            Ask support
          </Button>
        </Group>
      </Container>
    </SimplePageLayout>
  );
}
