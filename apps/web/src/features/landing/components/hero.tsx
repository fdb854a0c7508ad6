import { Button, Container, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { paths } from '@storefront/contract';
import { Link } from 'react-router';
import { scrollToSection, sectionIds } from '../scroll-to-section.ts';
import classes from './landing.module.css';

/** The marketing claims of spec section 1; uptime is a goal, as the terms say. */
const claims = [
  { value: '99.9%', label: 'Uptime goal' },
  { value: '50M+', label: 'Residential IPs' },
  { value: '100ms', label: 'Typical latency' },
  { value: '1000+', label: 'Retailers and sites' },
  { value: '24/7', label: 'Support' },
  { value: 'HTTPS', label: 'Support on every proxy' },
] as const;

export function Hero() {
  return (
    <Container size="lg" className={classes.hero}>
      <Title order={1} className={classes.heroTitle}>
        Proxies built for <span className={classes.accent}>speed and success</span>
      </Title>
      <Text size="lg" className={classes.muted} maw={640} mx="auto" mt="lg">
        Dedicated static ISP proxies, retailer-optimised PK1 ISP proxies and rotating residential IPs for sneaker and
        ticket bots, web scraping and private browsing.
      </Text>
      <Group justify="center" mt="xl" gap="md">
        <Button component={Link} to={paths.signup} size="lg">
          Purchase Proxies
        </Button>
        <Button
          size="lg"
          variant="default"
          component="a"
          href={`#${sectionIds.pricing}`}
          onClick={(event: React.MouseEvent) => {
            event.preventDefault();
            scrollToSection(sectionIds.pricing);
          }}
        >
          View Pricing
        </Button>
      </Group>
      <SimpleGrid
        cols={{ base: 2, sm: 3, md: 6 }}
        spacing="sm"
        mt={48}
        component="ul"
        style={{ listStyle: 'none' }}
        p={0}
      >
        {claims.map((claim) => (
          <li key={claim.label} className={classes.stat}>
            <div className={classes.statValue}>{claim.value}</div>
            <Text size="sm" className={classes.muted}>
              {claim.label}
            </Text>
          </li>
        ))}
      </SimpleGrid>
    </Container>
  );
}
