import '../../../styles/app-mantine.ts';
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { BrandLink } from '../../../components/brand-link.tsx';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle.tsx';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link.tsx';
import { site } from '../../../config/site.ts';

/** The frame of every sign-in screen: brand home link, colour-scheme switch, one card with a title. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} | ${site.brandName}`;
  }, [title]);

  return (
    <Box mih="100vh" px="md" py="xl" bg="var(--mantine-color-body)">
      <SkipLink />
      <Group component="header" justify="space-between" maw={440} mx="auto" mb="lg">
        <BrandLink />
        <ColorSchemeToggle />
      </Group>
      <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={440}>
          <Stack gap={4} mb="lg">
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Paper>
      </Center>
    </Box>
  );
}
