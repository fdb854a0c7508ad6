import '../styles/app-mantine.ts';
import { Anchor, Box, Container, Group } from '@mantine/core';
import { paths } from '@storefront/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { site } from '../config/site.ts';
import { BrandLink } from './brand-link.tsx';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link.tsx';

/** The plain frame of the legal and error pages: brand, colour-scheme switch, content, footer links. */
export function SimplePageLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Group justify="space-between">
            <BrandLink />
            <ColorSchemeToggle />
          </Group>
        </Container>
      </Box>
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} style={{ flexGrow: 1 }} py="xl">
        {children}
      </Box>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Group justify="space-between" gap="sm">
            <Box fz="sm" c="dimmed">
              © 2025 {site.brandName}
            </Box>
            <Group gap="md" fz="sm">
              <Anchor component={Link} to={paths.privacy} size="sm">
                Privacy Policy
              </Anchor>
              <Anchor component={Link} to={paths.terms} size="sm">
                Terms of Service
              </Anchor>
              <Anchor href={site.chatCommunityUrl} target="_blank" rel="noopener noreferrer" size="sm">
                Community
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
