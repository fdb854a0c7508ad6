import '../../../styles/app-mantine.ts';
import { Button, Drawer, Stack } from '@mantine/core';
import { PRODUCT_IDS, PRODUCTS, paths } from '@storefront/contract';
import { IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { site } from '../../../config/site.ts';
import { sectionIds } from '../scroll-to-section.ts';

interface MobileMenuProps {
  opened: boolean;
  onClose: () => void;
  onSection: (id: string) => void;
}

/** The burger drawer of the landing navigation, below 768 px. */
export default function LandingMobileMenu({ opened, onClose, onSection }: MobileMenuProps) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={site.brandName}
      hiddenFrom="sm"
      position="right"
      size="80%"
      zIndex={300}
    >
      <Stack component="nav" aria-label="Mobile" gap="xs">
        {PRODUCT_IDS.map((id) => (
          <Button key={id} variant="subtle" justify="flex-start" onClick={() => onSection(sectionIds.products)}>
            {PRODUCTS[id].label}
          </Button>
        ))}
        <Button variant="subtle" justify="flex-start" onClick={() => onSection(sectionIds.pricing)}>
          Pricing
        </Button>
        <Button
          variant="subtle"
          justify="flex-start"
          component="a"
          href={site.chatCommunityUrl}
          target="_blank"
          rel="noopener noreferrer"
          rightSection={<IconExternalLink size={14} aria-hidden />}
        >
          Community
        </Button>
        <Button component={Link} to={paths.login} onClick={onClose} mt="sm">
          Purchase / Sign In
        </Button>
      </Stack>
    </Drawer>
  );
}
