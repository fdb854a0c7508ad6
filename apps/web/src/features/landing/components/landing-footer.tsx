import { Container, Group, Text, VisuallyHidden } from '@mantine/core';
import { paths } from '@storefront/contract';
import { Link } from 'react-router';
import { site } from '../../../config/site.ts';
import classes from './landing.module.css';

export function LandingFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="md">
          <Text size="sm" c="gray.4">
            © 2025 {site.brandName}. All rights reserved.
          </Text>
          <Group component="nav" aria-label="Footer" gap="lg">
            <Link to={paths.privacy} className={classes.footerLink}>
              Privacy Policy
            </Link>
            <Link to={paths.terms} className={classes.footerLink}>
              Terms of Service
            </Link>
            <a href={site.chatCommunityUrl} target="_blank" rel="noopener noreferrer" className={classes.footerLink}>
              Community<VisuallyHidden> (opens in a new tab)</VisuallyHidden>
            </a>
          </Group>
        </Group>
      </Container>
    </footer>
  );
}
