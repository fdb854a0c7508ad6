import { SimpleGrid, Text, Title } from '@mantine/core';
import { IconBolt, IconChartLine, IconSettingsCheck, IconShieldLock } from '@tabler/icons-react';
import classes from './landing.module.css';
import { LandingSection } from './landing-section.tsx';

const reasons = [
  {
    title: 'Lightning Fast',
    text: 'Around 100ms latency on premium ISP networks, so your tasks check out before the crowd.',
    icon: IconBolt,
  },
  {
    title: 'Ultra Secure',
    text: 'HTTPS on every proxy and private credentials for each order. Your traffic stays yours.',
    icon: IconShieldLock,
  },
  {
    title: 'Easy Setup',
    text: 'Copy or download your list in the format your tool expects and start in minutes.',
    icon: IconSettingsCheck,
  },
  {
    title: 'High Performance',
    text: 'A 99.9% uptime goal, dedicated IPs and 24/7 support when it matters most.',
    icon: IconChartLine,
  },
] as const;

export function WhyChooseUs() {
  return (
    <LandingSection name="why" title="Why Choose Us?" subtitle="Infrastructure tuned for the sites that matter to you.">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        {reasons.map(({ title, text, icon: Icon }) => (
          <article key={title} className={classes.card}>
            <div className={classes.iconBadge}>
              <Icon size={26} aria-hidden />
            </div>
            <Title order={3} size="h4" mt="md" className={classes.cardTitle}>
              {title}
            </Title>
            <Text size="sm" className={classes.muted} mt="xs">
              {text}
            </Text>
          </article>
        ))}
      </SimpleGrid>
    </LandingSection>
  );
}
