import { ActionIcon, Box, useComputedColorScheme, useMantineColorScheme, VisuallyHidden } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/**
 * Switches between light and dark. Both states are rendered and the colour scheme's CSS shows one, so the markup
 * is the same whatever the stored choice: the server-rendered pages hydrate without a mismatch.
 */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
      <Box component="span" lightHidden>
        <IconSun size={18} aria-hidden />
        <VisuallyHidden>Switch to light colour scheme</VisuallyHidden>
      </Box>
      <Box component="span" darkHidden>
        <IconMoon size={18} aria-hidden />
        <VisuallyHidden>Switch to dark colour scheme</VisuallyHidden>
      </Box>
    </ActionIcon>
  );
}
