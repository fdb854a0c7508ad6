import '../../../styles/full-mantine.ts';
import { Anchor, Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { paths } from '@storefront/contract';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle.tsx';
import { site } from '../../../config/site.ts';
import { BrandMark } from '../../landing/components/brand-mark.tsx';

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
      <Group justify="space-between" maw={440} mx="auto" mb="lg">
        <Anchor component={Link} to={paths.home} fw={800} c="var(--mantine-color-text)" underline="never">
          <Group gap="xs">
            <BrandMark size={26} />
            {site.brandName}
          </Group>
        </Anchor>
        <ColorSchemeToggle />
      </Group>
      <Center component="main">
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
